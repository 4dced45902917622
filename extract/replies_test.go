package extract

// Tests of the reply forms in replies.go, each with cases that must not
// be read as decisions.

import (
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
)

// TestNumberedPicks checks replies that take or rule out several items of
// a numbered list by number: each item is a decision of its own.
func TestNumberedPicks(t *testing.T) {
	const followUps = "Follow-ups (proposed):\n1. Alert when pool utilisation exceeds 80% for 5 minutes.\n2. Set a 30s statement_timeout on the reporting role.\n3. Move reporting queries to a read replica.\n\nEach needs an owner."
	const alert, timeout, replica = "Alert when pool utilisation exceeds 80% for 5 minutes", "Set a 30s statement_timeout on the reporting role", "Move reporting queries to a read replica"
	checkReplies(t, "What follow-ups for the postmortem?", []replyCase{
		{followUps, "This is great. 1 and 2 are in, we agreed on those this morning.", alert + "|" + timeout},
		{followUps, "Let's do 1 and 3.", alert + "|" + replica},
		{followUps, "2 and 3, please.", timeout + "|" + replica},
		{followUps, "We'll do 1 and 2 now, 3 later.", alert + "|" + timeout},
		{followUps, "1 is in.", alert},
		{followUps, "3 is out, too big for this quarter.", "Decided against: " + replica},
		{followUps, "2 and 5 are in.", ""},
		{followUps, "Between 1 and 2 I can't decide.", ""},
	})
	const lettered = "**Option A: in-place ALTER**\nA full rewrite under a lock.\n\n**Option C: expand/contract to numeric(19,4)**\nA new column, kept in sync.\n\nI'd lean towards **B**; with three-decimal currencies, **C**."
	const optionC = "expand/contract to numeric(19,4) A new column, kept in sync"
	checkReplies(t, "How do we fix the money column?", []replyCase{
		{lettered, "We sell in JOD, cents won't cut it. ok go with C. For step 2, is a trigger better?", optionC},
		{lettered, "C.", optionC},
		{lettered, "We asked J. Smith about it. For step 2, is a trigger better?", ""},
	})
}

// TestNumberedSections checks replies that go through an answer's numbered
// sections ("### 4. Banners") point by point: a yes takes the section's
// advice under its title, a line naming a thing says what it was chosen for,
// and a yes to one point is not a yes to the message's recommendation.
func TestNumberedSections(t *testing.T) {
	const sections = "Point by point:\n\n## 1. SSO: build or buy\n| Option | Effort |\n|---|---|\n| a) ruby-saml | weeks |\n| b) WorkOS | days |\n\n" +
		"At your size I'd go with **WorkOS**, keeping Devise for password users.\n\n## 2. SCIM\nSCIM matters mostly for deprovisioning.\n\n" +
		"## 3. Sessions\nYour pen tester is right: a JWT in localStorage can't be revoked.\n\n## 4. Let admins enforce SSO\nOnce an org has SSO, let its admin require it.\n\n" +
		"### 5. Banners\nI'd **drop them**. eCPMs are low.\n\n### 6. Order of operations\nDon't move DNS and CDN in the same window."
	const sso = "SSO: build or buy: WorkOS, keeping Devise for password users"
	checkReplies(t, "How do we add enterprise auth?", []replyCase{
		{sections, "4. yes, makes sense", "Let admins enforce SSO"},
		{sections, "1. yes\n4. agreed", sso + "|Let admins enforce SSO"},
		{sections, "5. yep, banners go.", "Banners: drop them"},
		{sections, "1. WorkOS.\n2. ok", "SSO: build or buy: WorkOS"},
		{sections, "6. DNS first, then the CDN a few weeks later.", "Order of operations: DNS first, then the CDN a few weeks later"},
		// The user's own words say more than the section's title.
		{sections, "3. agreed, we'll move to server-side sessions in HttpOnly cookies.", "We'll move to server-side sessions in HttpOnly cookies"},
		// A section that explains advises nothing to take.
		{sections, "2. ok\n3. sure", ""},
		{sections, "2. what does SCIM cost?", ""},
	})
}

// TestNumberedLineTitle checks that a decision on a reply's numbered line
// whose "it" or "them" is the point it answers says so, with the point's
// title, and takes the place of the bare title its yes took.
func TestNumberedLineTitle(t *testing.T) {
	const points = "Here's how I'd order it:\n\n1. **Keyboard traps in modals (4).** These are blockers. Replace the homegrown modal.\n" +
		"2. **Form labels (11).** Mostly mechanical fixes.\n3. **Visible focus (9).** Usually one global CSS change."
	checkReplies(t, "How do we prioritise the audit findings?", []replyCase{
		{points, "Going through your list:\n\n1. Yes, modals first. It's our own component, so we'll rip it out and use Radix Dialog instead of patching it.\n2. Labels probably sprint 1.",
			"Keyboard traps in modals: we'll rip it out and use Radix Dialog instead of patching it"},
		// Nothing to resolve: the decision stands as written.
		{points, "Going through your list:\n\n3. agreed, we'll add a focus ring to the global stylesheet.", "We'll add a focus ring to the global stylesheet"},
		// Not on a numbered line: no point to take the title of.
		{points, "Modals are our own component, so we'll rip them out and use Radix Dialog.", "We'll rip them out and use Radix Dialog"},
	})
}

// TestNumberedQuestions checks replies that answer the assistant's
// numbered questions line by line: a short answer naming what was asked
// about is a decision, under the question's title; an open, hedged or bare
// answer is none.
func TestNumberedQuestions(t *testing.T) {
	const questions = "The schema is above.\n\n## Open questions\n\n1. **Time zones.** Do clinics span time zones? I'd store `timestamptz`.\n" +
		"2. **Cancellations.** Delete cancelled appointments, or keep them with a `status`?\n3. **Availability.** Compute free slots on the fly, or keep a `slots` table?\n" +
		"4. Monthly quota: **hard** (block at 100%) or **soft** (bill overage)?\n5. If Redis is unavailable: **fail open or fail closed**?\n6. Should limits apply per API key or per partner organisation?"
	const listed = "The schema is above.\n\n1. Clinics get a `time_zone` column.\n2. Cancelled appointments keep a `status`."
	checkReplies(t, "How should I model the booking tables?", []replyCase{
		{questions, "Answers:\n\n2. Keep them, with a status column. We need the history.", "Cancellations: Keep them, with a status column"},
		{questions, "5. fail open, but log loudly.", "If Redis is unavailable: fail open, but log loudly"},
		{questions, "4. soft, with overage billing.", "Monthly quota: soft, with overage billing"},
		{questions, "6. per partner org, not per key.", "per partner org, not per key"},
		{questions, "1. Yes: timestamptz everywhere.", "Time zones: timestamptz everywhere"},
		// Open, hedged, bare or asking back: nothing settled.
		{questions, "3. Not sure yet.\n4. still arguing with billing about this.", ""},
		{questions, "2. Keep them, I guess we could use a status column.", ""},
		{questions, "1. yes\n2. no", ""},
		{questions, "3. How slow would computing on the fly be?", ""},
		{questions, "2. Let me check with the clinic owners first.", ""},
		{questions, "2. I'll ask Priya, she owns the booking flow.", ""},
		// No question 2 was asked: the line states, it answers nothing.
		{listed, "2. Keep them, with a status column.", ""},
	})
}

// TestDecisionClauses checks a decision inside a longer sentence: it starts
// after a dash, and a question asked in a later clause leaves it standing.
func TestDecisionClauses(t *testing.T) {
	const options = "Kyoto is lovely. Osaka is great for food."
	checkReplies(t, "Which cities?", []replyCase{
		{options, "Honestly two cities feels like plenty — we're skipping Osaka this time.", "We're skipping Osaka this time"},
		{options, "We're skipping Osaka because we'd rather have slower days, and we can eat okonomiyaki in Kyoto too, right?", "We're skipping Osaka"},
		{options, "We're skipping Osaka, right?", ""},
		{options, "Are we skipping Osaka, and is that wise?", ""},
		{options, "For the food, we're skipping Osaka.", "For the food, we're skipping Osaka"},
	})
}

// TestKeptAsIs checks a reply that keeps a thing as it is ("X stays on
// Y"), in a sentence of its own, after "so", or after a semicolon next to
// another decision.
func TestKeptAsIs(t *testing.T) {
	const advice = "Vitest runs the same expect API; the admin app's Enzyme tests need a rewrite first. Keep `amount` for at least one release so you can roll back."
	checkReplies(t, "Should we move the tests and drop the column?", []replyCase{
		{advice, "Switch to Vitest for the web app; the admin app stays on Jest until its Enzyme tests are rewritten.", "Switch to Vitest for the web app|the admin app stays on Jest until its Enzyme tests are rewritten"},
		{advice, "Finance won't touch the dashboards before close, so `amount` stays until Q3 close is done.", "`amount` stays until Q3 close is done"},
		{advice, "The admin app stays on Jest for now.", "The admin app stays on Jest for now"},
		{advice, "Memory still stays at 2 GB after the deploy.", ""},
		{advice, "Does the admin app stay on Jest?", ""},
		{advice, "Maybe the admin app stays on Jest.", ""},
		{advice, "It stays at 100% CPU for hours.", ""},
		{advice, "The fan stays on all night.", ""},
		{advice, "If the admin app stays on Jest, what breaks?", ""},
	})
}

// TestMidSentenceInstruction checks an instruction that starts after a yes
// or a "but" inside a longer sentence: the decision starts at its verb.
func TestMidSentenceInstruction(t *testing.T) {
	const plan = "Send Deprecation and Sunset headers on every v1 response, then run brownouts in the last two months."
	checkReplies(t, "How do we retire v1?", []replyCase{
		{plan, "The date is set by legal. Headers yes, sure, go ahead with both on every v1 response.", "Go ahead with both on every v1 response"},
		{plan, "Ok I hear you, but drop the brownouts, CS will chase people directly.", "Drop the brownouts, CS will chase people directly"},
		{plan, "Fine, but keep in mind that legal sets the date.", ""},
		{plan, "We tried that, but use of the headers is rare.", ""},
		{plan, "The headers are new to us, and brownouts scare the CS lead.", ""},
	})
}

// TestValueSet checks a user's "the X is going to be Y" for a thing whose
// value is chosen (a model, a date, a default), and not a judgement.
func TestValueSet(t *testing.T) {
	const compare = "The logistic regression with spline terms gets AUC 0.81, LightGBM 0.84. A sunset about six months out is usual."
	checkReplies(t, "Which model, and when do we sunset v1?", []replyCase{
		{compare, "Given that, the v1 model is going to be the logistic regression with spline terms, I can live with 0.81.", "the v1 model is going to be the logistic regression with spline terms"},
		{compare, "The sunset date is going to be March 31, 2026, because of the Q4 freezes.", "The sunset date is going to be March 31, 2026"},
		{compare, "The deadline is going to be tight.", ""},
		{compare, "The migration will be a pain either way.", ""},
		{compare, "The model will be slower than we'd like.", ""},
		{compare, "Maybe the date will be March 31.", ""},
		{compare, "Will the model be the logistic regression?", ""},
	})
}

// TestSealedChoice checks a bare choice sealed by the next sentence
// ("Clerk. Final.") or by an "obviously" after it.
func TestSealedChoice(t *testing.T) {
	const providers = "Clerk has the best developer experience. Keycloak means running an identity server. You could host in Frankfurt or Ireland."
	checkReplies(t, "Which auth provider, and which region?", []replyCase{
		{providers, "Ok, that's useful. Clerk. Final.", "Clerk"},
		{providers, "Thanks for all this. Clerk. Final answer.", "Clerk"},
		{providers, "Ok, that's useful. Clerk. Finally some clarity.", ""},
		{providers, "Frankfurt, obviously, given the contracts.", "Frankfurt"},
		{providers, "Ok, that's useful. Clerk. Let me think.", ""},
	})
}

// TestRepliesFromFreshConversations checks forms found in labelled
// conversations 119–149, written apart from the extractor: a yes after the
// thing it takes, a flat "no X", things ruled out "then", a thing that
// becomes or goes into something, a choice named with "it is" after a word
// that is also a stop word.
func TestRepliesFromFreshConversations(t *testing.T) {
	const advice = "Create the events topic with 12 partitions keyed by customer_id. Use conversion per visitor as the primary metric. " +
		"RabbitMQ, SQS and NATS all lack replay. A compatibility shim would keep old callers working; Terragrunt adds a layer. " +
		"Present the norming study as the first empirical chapter and enter the norms as item covariates. Keep the user in a me query."
	checkReplies(t, "What do you suggest?", []replyCase{
		{advice, "12 partitions keyed by customer_id, yep. Retention is next.", "12 partitions keyed by customer_id"},
		{advice, "12 partitions keyed by customer_id, yes — with 3 days of retention.", "12 partitions keyed by customer_id — with 3 days of retention"},
		{advice, "12 partitions keyed by region and tenant, fair compromise, the team will survive.", "12 partitions keyed by region and tenant"},
		{advice, "metric: conversion per visitor as primary, agreed.", "conversion per visitor as primary"},
		{advice, "prod applies from CI with 12 partitions - yes, doing that regardless.", "prod applies from CI with 12 partitions"},
		{advice, "12 partitions keyed by customer_id, yes, but only after the audit.", ""},
		{advice, "The consumer lag on our side, yes, it grows every night.", ""},
		{advice, "Maybe 12 partitions, sure.", ""},
		{advice, "rabbit and sqs are out then, replay is non negotiable.", "rabbit and sqs are out then"},
		{advice, "option 2. and definitely no terragrunt, debugging its cache was miserable.", "Definitely no terragrunt"},
		{advice, "Update the fixtures to cents. No shim.", "No shim"},
		{advice, "No worries.", ""},
		{advice, "No shim would have caught this in time, sadly.", ""},
		{advice, "So the norming study becomes the first empirical chapter, then study 1.", "the norming study becomes the first empirical chapter, then study 1"},
		{advice, "And the norms go in as covariates, that's a nice story.", "the norms go in as covariates, that's a nice story"},
		{advice, "The fan goes into overdrive at night.", ""},
		{advice, "me query it is, makes sense.", "me query"},
		{advice, "So be it.", ""},
	})
}

// TestMoreFreshForms checks the rest of the forms labelled conversations
// 119–149 showed: options as lettered bold headings, "X's out", a price
// that stays or goes to a value, "and yes drop …", a one-word yes, "no X,
// we'll go with Y", a no after the thing, an item taken with "yes".
func TestMoreFreshForms(t *testing.T) {
	const routes = "Two ways:\n\n**A. Northern section**\nFour huts, then the bus.\n\n**B. Northern section + Peiljoch**\nThe lake on the last day.\n\n" +
		"A tent doesn't work here. Join the Alpenverein for cheaper beds. An inReach or the SOS app. Croissants could go to $4.25; sourdough at $8. " +
		"A public status page for security incidents is common. Drop idx_customer_id afterwards."
	const b = "Northern section + Peiljoch The lake on the last day"
	checkReplies(t, "Which route?", []replyCase{
		{routes, "B!! that lake looks unreal.", b},
		{routes, "tent's out then, not carrying 2kg extra.", "tent's out then"},
		{routes, "ok. croissants go to $4.25 from the 1st.", "croissants go to $4.25 from the 1st"},
		{routes, "sourdough is staying at $8, my regulars would riot.", "sourdough is staying at $8, my regulars would riot"},
		{routes, "and yes drop idx_customer_id once the new one's in.", "Drop idx_customer_id once the new one's in"},
		{routes, "alpenverein, yep, signing us both up tonight.", "alpenverein"},
		{routes, "no inreach, we'll go with the SOS app.", "No inreach, we'll go with the SOS app"},
		{routes, "no inreach, it costs too much.", ""},
		{routes, "status page for security incidents, absolutely not, legal would have my head.", "Decided against: status page for security incidents"},
		{routes, "the public status page, nope, but maybe later.", ""},
		{routes, "The fan goes to 100% at night.", ""},
	})
	const numbered = "Two ways:\n1. Downcast the anyhow error in main.\n2. Carry an exit code in every error.\n\nWhich one?"
	checkReplies(t, "How do we pick exit codes?", []replyCase{
		{numbered, "1 yes, do it.", "Downcast the anyhow error in main"},
		{numbered, "1 is fine, we won't have more than 3 codes.", "Downcast the anyhow error in main"},
	})
}

// TestTableAndGerundForms checks a table of numbered recommendations
// answered line by line, a change under way after a yes ("ok, upgrading
// to 1.9 first then"), "agree on no X", a bare choice with "then" and a
// comment, and a thing that stays up.
func TestTableAndGerundForms(t *testing.T) {
	const table = "## Recommendations\n\n| # | Change | Saving |\n|---|---|---|\n| 1 | Right-size requests | $6k |\n| 5 | VPC endpoints: S3 gateway endpoint | $2k |\n| 6 | Logs: drop debug at the agent | $2k |\n\n" +
		"Upgrade to Terraform 1.9 before the moves. A PM is premature at your size. Lager beds at the Dresdner Hütte are cheapest. Staging could scale to zero at night."
	checkReplies(t, "Where do we save?", []replyCase{
		{table, "going through it:\n5 - yes, can't believe we don't have it.\n6 - yes, drop debug everywhere.\n3 - yes in principle but I need to check.", "VPC endpoints: S3 gateway endpoint|Logs: drop debug at the agent"},
		{table, "we're on 1.5.7 sadly. ok, upgrading to 1.9 first then, I'd rather review moves in PRs.", "upgrading to 1.9 first then, I'd rather review moves in PRs"},
		{table, "ok, wondering whether 1.9 breaks the providers.", ""},
		{table, "done arguing about it lol", ""},
		{table, "done, upgrading to 1.9 first then.", "upgrading to 1.9 first then"},
		{table, "ok, thanks, getting late here.", ""},
		{table, "agree on no PM, that'd be silly at our size.", "agree on no PM, that'd be silly at our size"},
		{table, "ok Lager at Dresdner then, booking it now.", "Lager at Dresdner"},
		{table, "dev gets scaled to zero at night, staging stays up 24/7 for the QA team.", "staging stays up 24/7 for the QA team"},
	})
}

// TestConclusionsAndRefusals checks a choice after ", so", a thing refused
// with "X: no." or a longer "no X, obviously", an instruction after "ok"
// with more verbs, "So:" before a restatement, "totally agree" after the
// thing, a verdict on a thing named with "per", and a task of the
// speaker's cut from the decision.
func TestConclusionsAndRefusals(t *testing.T) {
	const advice = "Options: A) page SRE; B) rotate within security; C) an MDR vendor for nights and weekends. External comms need legal sign-off. " +
		"Converting to async is a big change. Rewrite the DATE() filter to a range on created_at. Use field-level LWW with an op queue and a separate photo upload queue. " +
		"A baseVersion per field avoids clock skew. Put the salary band in the ad."
	checkReplies(t, "What now?", []replyCase{
		{advice, "SRE won't take security pages, so we're doing C: an MDR vendor for nights and weekends.", "We're doing C: an MDR vendor for nights and weekends"},
		{advice, "paging per your table. and no external comms without legal sign-off, obviously.", "No external comms without legal sign-off"},
		{advice, "async: no.", "Decided against: async"},
		{advice, "Kafka: no.", ""},
		{advice, "paging — SRE is out, they're stretched thin.", "SRE is out"},
		{advice, "SRE is off the table anyway, they're stretched thin.", "SRE is off the table anyway"},
		{advice, "async i dont really get the point of, two code paths to maintain, so no.", "Decided against: async"},
		{advice, "The MDR vendor, my husband called them yesterday and they want 3k a month, so no.", "Decided against: The MDR vendor"},
		{advice, "the weather was bad all week, so no.", ""},
		// An inline "decided:" opens a list, a sentence an item.
		{advice, "ok. decided: an MDR vendor for nights. log RT. no SMS, not this quarter at least. thanks! can you draft the contract?", "an MDR vendor for nights|log RT|No SMS, not this quarter at least"},
		{advice, "And async: we talked it over at lunch, we decided no, at least for this release.", "Decided against: async"},
		{advice, "And Kafka: we talked it over at lunch, we decided no.", ""},
		// "it" as what the paragraph opened with.
		{advice, "The mandatory checkpointing policy — I can't enforce that on 40 students. Drop it.", "Decided against: The mandatory checkpointing policy"},
		{advice, "Runbooks: support reads them during escalations. Keep it.", "Runbooks"},
		{advice, "Update: the survey came back fine. Drop it.", ""},
		{advice, "I'm tired of this argument about the pager. Drop it.", ""},
		{advice, "Sync meeting — 15 min is fine. no actually, make it mandatory.", "Sync meeting: make it mandatory"},
		{advice, "Sync meeting — 15 min is fine. should we make it mandatory?", ""},
		{advice, "ok rewrite it to a range on created_at, I'll push that regardless.", "rewrite it to a range on created_at"},
		{advice, "So: field-level LWW with an op queue.", "field-level LWW with an op queue"},
		{advice, "a separate photo upload queue, totally agree, that's half our bugs.", "a separate photo upload queue"},
		{advice, "baseVersion per field makes sense, doing that instead of timestamps.", "baseVersion per field"},
		{advice, "ok. we'll put the salary band in the ad, I'll write the JD this week.", "We'll put the salary band in the ad"},
		// Someone else's suggestion, turned down in the sentence or the next.
		{advice, "One more thing: someone on the team asked to log full request bodies at DEBUG. No. We have PII in half the payloads.", "Decided against: log full request bodies at DEBUG"},
		{advice, "someone at the market told me to try the costco store brand butter too, but nope.", "Decided against: try the costco store brand butter"},
		{advice, "The vendor wants us to sign a 3 year contract. No way.", "Decided against: sign a 3 year contract"},
		{advice, "My manager asked me to lead the migration, a bit nervous.", ""},
		{advice, "they told us to upgrade to v2, but no luck so far.", ""},
		{advice, "Do they want us to migrate? No.", ""},
		{advice, "I asked them to fix the build. No.", ""},
	})
}

// TestChoiceInLongerSentences checks "X it is" and "X is out" ("isn't
// happening", "aren't an option for us") inside a longer sentence: after "and", a second interjection or an ellipsis, before
// a dash; and what is no choice ("stays as it is", "is out on Friday").
func TestChoiceInLongerSentences(t *testing.T) {
	const field = "Slurm, Kubernetes with Kueue, or Run:ai. Grafana Cloud or self-hosted. The hotel or the university. Algolia, Typesense or Salesforce. Dramatiq needs a broker. Elm Road is a nice flat."
	checkReplies(t, "Which one?", []replyCase{
		{field, "We had the group leads meeting yesterday and Slurm it is — half of us used it before.", "Slurm"},
		{field, "Yeah fine, Grafana Cloud it is, at least for this year.", "Grafana Cloud"},
		{field, "So… the hotel it is, Saturday 18 October.", "the hotel"},
		{field, "We won't make the deadline, so auth stays as it is.", ""},
		{field, "Algolia's out — we got a quote last year.", "Algolia's out"},
		{field, "Okay, Salesforce is out — the consultant alone costs too much.", "Salesforce is out"},
		{field, "Run:ai is out on cost alone, the postdoc will survive.", "Run:ai is out"},
		{field, "dramatiq ruled out, not keeping a broker around.", "dramatiq ruled out"},
		{field, "So Elm Road is off for now, which is a shame.", "Elm Road is off for now"},
		{field, "Priya is out on Friday.", ""},
		{field, "The light is off for now.", ""},
		{field, "Terragrunt isn't happening; half the team is new to Terraform.", "Terragrunt isn't happening"},
		{field, "Self-hosted runners aren't an option for us; nobody wants to be on call.", "Self-hosted runners aren't an option for us"},
		{field, "OK, GAPDH is out as a reference for this study; the shift is too big.", "GAPDH is out as a reference for this study"},
		{field, "Priya is out for the week.", ""},
		{field, "Self-hosted runners are a non-starter for us anyway; security won't sign off.", "Self-hosted runners are a non-starter for us anyway"},
		{field, "It isn't happening.", ""},
	})
}

// TestPicksAndMeetingLists checks a reply that opens with an option's
// letter ("A. transactional enqueue is the win"), options labelled
// "**a) …**", and a list under a reported meeting ("talked w/ Dana this
// morning.").
func TestPicksAndMeetingLists(t *testing.T) {
	const options = "Three ways:\n\n**a) Keep Confluence, add owners**\nCheap.\n\n**b) Markdown in the service repos**\nNext to the code.\n\nWhich fits?"
	const repos = "Markdown in the service repos Next to the code"
	checkReplies(t, "Where do runbooks live?", []replyCase{
		{options, "b. We already run Backstage, so TechDocs is free.", repos},
		{options, "B) for sure.", repos},
		{options, "J. Smith asked about this too.", ""},
	})
	const models = "orders_wide can stay a full-rebuild table. fct_orders can be an incremental merge on order_id. A dim_date table is optional on Snowflake."
	checkReplies(t, "How do we model orders?", []replyCase{
		{models, "talked w/ Dana + Ravi this morning.\n- orders_wide stays a table, full rebuild.\n- fct_orders: incremental merge on order_id.\n- no dim_date, snowflake date fns are fine.",
			"orders_wide stays a table, full rebuild|fct_orders: incremental merge on order_id|No dim_date, snowflake date fns are fine"},
		{models, "talked to Dana about it.\nShe has no idea either?", ""},
	})
}

// TestTerseReplies checks the short forms of terse replies: a restatement
// after "let's do it:", "we leave X out", "move us over to", a restatement
// closed by "like you said", "X fine." without a comma, "2 no", "don't …",
// "let's go X", and "topic: what we do about it".
func TestTerseReplies(t *testing.T) {
	const advice = "Instrument with OTel SDKs and run a Collector in the cluster. Leave totalCount out of v1. MailerLite is cheaper than Mailchimp. " +
		"Give the yearly plan a 7-day trial. Bound the cache with lru-cache as a direct dependency. Typesense or Elasticsearch both fit. " +
		"Exempt /healthz from rate limiting. Handoff day could move from Monday to Wednesday. For splitting, use timing-based shards with gotestsum.\n" +
		"1. Fix the listener leak.\n2. Invalidate the cache on price messages."
	checkReplies(t, "What do we do?", []replyCase{
		{advice, "Okay, let's do it: SDKs in the services, a Collector in the cluster.", "SDKs in the services, a Collector in the cluster"},
		{advice, "Ok we leave totalCount out of v1, we can add it later.", "We leave totalCount out of v1, we can add it later"},
		{advice, "I'll move us over to MailerLite, it's cheaper.", "I'll move us over to MailerLite, it's cheaper"},
		{advice, "Trial 7 days only on yearly, like you say, monthly no trial.", "Trial 7 days only on yearly"},
		{advice, "lru-cache as direct dep fine.", "lru-cache as direct dep"},
		{advice, "lru-cache as direct dep agree, not touching the rest.", "lru-cache as direct dep"},
		{advice, "timing-based shards I love, especially with gotestsum.", "timing-based shards"},
		{advice, "mailchimp nope, we're a mailerlite shop.", "Decided against: mailchimp"},
		{advice, "nope to mailchimp, it's a pain to set up.", "Decided against: mailchimp"},
		{advice, "the rewrite: nobody actually wanted to do the work lol. staying on mailchimp through launch.", "staying on mailchimp through launch"},
		{advice, "ok the 7-day trial on yearly is a no brainer, doing that this week.", "the 7-day trial on yearly is a no brainer, doing that this week"},
		{advice, "scrap the yearly trial, its a pain to support anyway.", "Scrap the yearly trial"},
		{advice, "everything is fine.", ""},
		{advice, "2 no, 10 min stale is fine.", "Decided against: Invalidate the cache on price messages"},
		{advice, "don't rate limit /healthz and /readyz.", "don't rate limit /healthz and /readyz"},
		{advice, "Don't worry about the cost.", ""},
		{advice, "Let's go Typesense.", "Let's go Typesense"},
		{advice, "Let's go back to the cache question.", ""},
		{advice, "Handoff day: moving it to Wednesday, nobody wants Mondays.", "Handoff day: moving it to Wednesday, nobody wants Mondays"},
		{advice, "splitting: timing-based shards w/ gotestsum, 4 to start.", "splitting: timing-based shards w/ gotestsum, 4 to start"},
		{advice, "splitting: not sure yet, what do you think?", ""},
		{advice, "splitting: gotestsum.", "splitting: gotestsum"},
		{advice, "lets do it: one runner per package, cached modules, nightly full run.", "one runner per package, cached modules, nightly full run"},
		{advice, "let's not do it: timing-based shards cost too much.", ""},
		{advice, "OK I make it the rule on my team: max 3 nights in a row.", "max 3 nights in a row"},
		{advice, "the yearly plan stays, my partner would literally divorce me lol.", "the yearly plan stays"},
		{advice, "the fan stays, it is loud.", ""},
		{advice, "no mailchimp then, one of our volunteers knows mailerlite.", "No mailchimp then"},
		{advice, "video: dunno.", ""},
		{advice, "Pickling: pretty sure a few tasks take querysets, need to grep.", ""},
		{advice, "Trial: I love the 7-day idea, let's do it.", "Trial: I love the 7-day idea"},
		{advice, "Trial: not sure yet, let's do it later.", ""},
		// A thing taken over another, without a verb.
		{advice, "Typesense, not Elasticsearch.", "Typesense, not Elasticsearch"},
		// A clause of someone's after a dash is the reason, not the decision.
		{advice, "talked to my sister and we're going with Typesense — she liked the typo tolerance.", "We're going with Typesense"},
		{advice, "we're going with Typesense — the cloud plan, not self-hosted.", "We're going with Typesense — the cloud plan, not self-hosted"},
		{advice, "ok we talked. going with Typesense — with the discount it's only 40 a month more, so it pays back.", "Going with Typesense"},
		{advice, "typesense rather than elasticsearch, the team knows it.", "typesense rather than elasticsearch"},
		{advice, "this week, not sure yet.", ""},
		{advice, "I want Typesense, not Elasticsearch?", ""},
		{advice, "Friday, not the weekend.", ""},
	})
}

// TestRestatedAcceptance checks a yes followed by what was laid out, in the
// user's own words: most of its words said by the assistant, none of it a
// question, a hedge or news of the user's own.
func TestRestatedAcceptance(t *testing.T) {
	const layout = "Deploy jobs can run on ARC runners inside the cluster with an in-cluster service account, so no kubeconfigs live in GitHub secrets. Teams usually leave 4xx responses at INFO, with the alert on the 401 rate."
	checkReplies(t, "How should deploys authenticate?", []replyCase{
		{layout, "Yeah ok, ARC runners with the in-cluster service account for the deploy jobs, no kubeconfigs in GitHub secrets.", "ARC runners with the in-cluster service account for the deploy jobs, no kubeconfigs in GitHub secrets"},
		{layout, "ok that works for me — 4xx stay at INFO and the alert is on the 401 rate.", "4xx stay at INFO and the alert is on the 401 rate"},
		{layout, "Sure: deploy jobs on ARC runners, because kubeconfigs in secrets scare me.", "deploy jobs on ARC runners"},
		{layout, "Yeah ok, ARC runners with the service account might work for the deploy jobs.", ""},
		{layout, "ok, ARC runners in the cluster for deploy jobs?", ""},
		{layout, "Yeah ok, our auditors meet on Tuesday and the budget review is next week.", ""},
		{layout, "ok, I'll look at ARC runners and the service account tomorrow.", ""},
		{layout, "Right, so the deploy jobs fail on ARC runners inside the cluster.", ""},
		{layout, "Yeah, the deploy jobs still fail on ARC runners inside the cluster.", ""},
		{layout, "OK, the in-cluster service account isn't allowed on ARC runners.", ""},
	})
}

// TestThirdBatchForms checks the forms labelled conversations 183–213
// showed: a label at the end of a line, "signed off on", "X is out:", "a
// hard no", "yes to X" and "no to X", "option B it is:", "actually scrap
// …", "B, but start with …", "we take option A", "So we do X", a choice
// with "not adding" after it, "X yes." and "X yes,", "do 1-3", an "ok:"
// list, and what a list under a label leaves out (tasks, musings).
func TestThirdBatchForms(t *testing.T) {
	const plan = "Plan:\n1. Bump dependencies on 3.8.\n2. Replace distutils.\n3. Add a 3.12 CI job.\n\n" +
		"**A) Two OTA slots with rollback**\nSafe.\n\n**B) Delta updates**\nSmaller.\n\n" +
		"nf-core/rnaseq suits you; Galaxy depends on quotas. Unlimited revisions are risky. Peer assessment and vivas both work. " +
		"pgvector or Qdrant. createSafeContext throws outside its provider. A 50% deposit is normal. Start with strictNullChecks or noImplicitAny. " +
		"DNS-01 with Cloudflare works for wildcards. Raised beds and drip line fit your yard."
	checkReplies(t, "What now?", []replyCase{
		{plan, "Went through this with Marco this morning. Where we landed:\n- raised beds, three of them\n- drip line, not soaker hoses\n- timer: not sure yet\n- I'll ask my dad about the wheelbarrow",
			"raised beds, three of them|drip line, not soaker hoses"},
		{plan, "the PI signed off on nf-core/rnaseq for all RNA-seq going forward.", "the PI signed off on nf-core/rnaseq for all RNA-seq going forward"},
		{plan, "Galaxy is out: the PI doesn't want quotas.", "Galaxy is out"},
		{plan, "unlimited revisions is a hard no, I'll counter with 3 rounds.", "unlimited revisions is a hard no"},
		{plan, "And yes to peer assessment that scales the mark.", "peer assessment that scales the mark"},
		{plan, "no to the vivas, too much scheduling.", "Decided against: the vivas"},
		{plan, "Yes to what exactly?", ""},
		{plan, "So, option B it is: delta updates from day one.", "option B: delta updates from day one"},
		{plan, "actually scrap the CI job, we have enough.", "actually scrap the CI job, we have enough"},
		{plan, "B, but start with strictNullChecks not noImplicitAny.", "Delta updates Smaller|Start with strictNullChecks not noImplicitAny"},
		{plan, "Okay, we take option A, two OTA slots with the rollback.", "Two OTA slots with rollback Safe"},
		{plan, "So we do DNS-01 with Cloudflare for all certificates, I prefer one method.", "We do DNS-01 with Cloudflare for all certificates"},
		{plan, "So we keep getting timeouts on the CI job.", ""},
		{plan, "ok pgvector, not adding another service for 3 people.", "pgvector"},
		{plan, "createSafeContext yes.", "createSafeContext"},
		{plan, "50% deposit yes, and IP transfer on final payment.", "50% deposit"},
		{plan, "straight to 3.12. do 1-3.", "Bump dependencies on 3.8|Replace distutils|Add a 3.12 CI job"},
		{plan, "Plan approved, with one change. Points 1 to 3 go in as written.", "Bump dependencies on 3.8|Replace distutils|Add a 3.12 CI job"},
		{plan, "Steps 1 and 3, please.", "Bump dependencies on 3.8|Add a 3.12 CI job"},
		{plan, "Steps 1 to 3, done. The CI job fails with a permission error.", ""},
		{plan, "Points 2 and 3, not sure about those.", ""},
		{plan, "Steps 3 to 1, please.", ""},
		{plan, "ok:\n- backups -> backblaze b2, separate account\n- retention exactly as you wrote", "backups -> backblaze b2, separate account|retention exactly as you wrote"},
	})
}

// TestCommentsAndSentenceEnds checks a comment after a comma cut off as the
// reason ("…, no reason to install another thing"), "signed off on" anywhere
// in a sentence, "no." ending a sentence (not "No. 5"), and a bare "No." that
// opens an answer not counting against its advice.
func TestCommentsAndSentenceEnds(t *testing.T) {
	const advice = "Traefik already ships with k3s. nf-core/rnaseq is the standard. Run `pyupgrade` over the codebase if you like."
	checkReplies(t, "What now?", []replyCase{
		{advice, "Ok, we stay with Traefik, no reason to install another thing.", "We stay with Traefik"},
		{advice, "We met yesterday and the PI signed off on nf-core/rnaseq.", "We met yesterday and the PI signed off on nf-core/rnaseq"},
		{advice, "pyupgrade: no. it touches every file.", "Decided against: pyupgrade"},
		{advice, "See No. 5 in the list.", ""},
		// "No. 5" must not end the sentence: the decision keeps its number.
		{advice, "We'll use pattern No. 5 from the list.", "We'll use pattern No. 5 from the list"},
	})
	const bareNo = "No. The work dir is a cache. Everything ends up in the outdir. Keep the work dir on scratch and clean it after each run."
	checkReplies(t, "Do we keep work/?", []replyCase{
		{bareNo, "Perfect.", "Keep the work dir on scratch and clean it after each run"},
	})
}

// TestFourthBatchForms checks the forms labelled conversations 215–245
// showed, and the false alarms they showed: a reply's numbered lines
// answering the assistant's numbered points, "so it's b:", "X it is" with
// an underscore, "so aws.", "the lasagna yes", "and no X, …", ", so:" before
// a restatement, "moving X over", "go out of"; a range numbering a line of
// the reply, a relative clause ("the modals we're replacing"), "never liked
// them", open list items, a choice deferred to a meeting.
func TestFourthBatchForms(t *testing.T) {
	const points = "1. **Free to play on both stores** with a Remove ads purchase.\n2. **Hints as rewarded ads.**\n3. **Interstitials every 3rd level.**\n4. **Drop banner ads.**\n\n" +
		"Render is nicer; AWS has your credits. The lasagna vegetariana could move up the menu. Bird mesh is optional. Compatibility could be FULL_TRANSITIVE. " +
		"Vitello tonnato sells poorly. Move the Mendeley library to Zotero. Orange only for headings; body text in slate-800. Modals we replace with Radix."
	const lettered = "**a) Darken the brand orange**\nEverywhere.\n\n**b) orange only for headings**\nBody text in slate-800."
	checkReplies(t, "What do you think?", []replyCase{
		{points, "ok going through these:\n1. makes sense, but I need to run it past Priya\n4. yep, banners go.\n3. every 3rd level is way too often?", "Drop banner ads"},
		{points, "4. Drop banner ads everywhere, on both stores.", "Drop banner ads everywhere, on both stores"},
		{lettered, "So it's b: orange only for big headings.", "orange only for headings Body text in slate-800"},
		{points, "FULL_TRANSITIVE it is, I'd rather be annoyed by the registry.", "FULL_TRANSITIVE"},
		{points, "render looks nicer tbh but we got credits. so aws.", "aws"},
		{points, "The lasagna yes, we put it on top.", "The lasagna"},
		{points, "switch it then. and no bird mesh, we've never seen a pigeon.", "No bird mesh"},
		{points, "Talked to Priya and she's on board, so: free on both stores, remove ads at $2.99.", "free on both stores, remove ads at $2.99"},
		{points, "I'm moving the whole Mendeley library over this weekend.", "I'm moving the whole Mendeley library over this weekend"},
		{points, "So vitello tonnato goes out of the menu from next week.", "vitello tonnato goes out of the menu from next week"},
		{points, "3-4. Haven't looked at those yet.", ""},
		{points, "Labels probably later, depends how many are inside the modals we're replacing anyway.", ""},
		{points, "never liked them anyway.", ""},
		{points, "Where we landed:\n- Shard count: not settled\n- Analytics: still a fight", ""},
		{points, "Outcome: the team chooses at the review meeting.", ""},
	})
}

// TestCommentAfterPick checks that a clause with its own subject after the
// thing picked is the decision's reason, not part of it; other decisions keep
// their second clause ("primary metric is X, annual share is secondary").
func TestCommentAfterPick(t *testing.T) {
	const advice = "Cursor connections or offset pagination both work for lists."
	checkReplies(t, "Which pagination?", []replyCase{
		{advice, "change of plan: we go with the cursor connections for all lists, the admin will have next/previous buttons.", "We go with the cursor connections for all lists"},
		{advice, "We'll use cursor connections, since offset pagination breaks on inserts.", "We'll use cursor connections"},
		{advice, "We'll keep offset pagination for the admin, cursor connections are for the app.", "We'll keep offset pagination for the admin, cursor connections are for the app"},
	})
}

// TestFifthBatchForms checks the forms labelled conversations 247–277
// showed: verdicts ("spike sounds good", "a mutex is enough", "Playwright
// won", not "… the obvious pick but …"), a yes after the thing ("…, go with
// that", "… like you say"), a bare name on a numbered line, lettered picks
// ("A and C, go ahead", "no to D"), "X goes behind Y", "no X:", "Keeping
// X"; and what is no decision ("so I'm not …", "… still open").
func TestFifthBatchForms(t *testing.T) {
	const fixes = "**Proposed fixes**\n\n- **A.** Rewrite the filter as a range.\n- **B.** Add a composite index.\n- **C.** Join customers in the query.\n- **D.** A nightly materialized view.\n\n" +
		"1. WorkOS or Auth0 for SSO.\n2. JIT provisioning at launch.\n\n" +
		"A Pulumi spike on one stack would tell you. A mutex around the append works. Playwright and Cypress both work. " +
		"Sessions could expire after 2h idle and 12h absolute. Put the desk perpendicular to the window. The bench can go behind the saw. " +
		"Keep the buffer of 5 person-months. A Snowflake spike is optional. Tomás is a natural lead. Plus-ones for partners only."
	checkReplies(t, "What do we do?", []replyCase{
		{fixes, "spike sounds good. which stack though?", "spike sounds good"},
		{fixes, "a mutex is enough.", "a mutex is enough"},
		{fixes, "Playwright won, mainly because of Safari.", "Playwright"},
		{fixes, "Tomás is the obvious pick technically but he's never led anything.", ""},
		{fixes, "2h idle / 12h absolute, go with that.", "2h idle / 12h absolute"},
		{fixes, "The desk I put perpendicular to the window like you say.", "The desk I put perpendicular to the window"},
		{fixes, "going through your points:\n1. WorkOS.\n2. not now.", "WorkOS"},
		{fixes, "A and C, go ahead.", "Rewrite the filter as a range|Join customers in the query"},
		{fixes, "no to D, finance reconciles same-day.", "Decided against: A nightly materialized view"},
		{fixes, "That's it — bench goes behind the saw at saw height.", "bench goes behind the saw at saw height"},
		{fixes, "No Snowflake spike: the numbers will decide in Q4.", "No Snowflake spike"},
		{fixes, "Keeping all 5 as buffer.", "Keeping all 5 as buffer"},
		{fixes, "I'll build it before the saw arrives so I'm not ripping on sawhorses.", ""},
		{fixes, "Plus-ones, we'll do partners only, but that one's still open.", ""},
	})
}

// TestNotYetDecided checks sentences that look like decisions and settle
// nothing: a not-doing that argues for an earlier decision or is put off, a
// choice left to a later meeting, a bare choice hedged after a dash or a
// colon, "is the one I'm dreading", "we're replacing X" without what
// replaces it.
func TestNotYetDecided(t *testing.T) {
	const advice = "Add the index in its own PR. Retention and the weekly full refresh need a decision. Postmortems can reuse SRE's template. Miette adds nicer errors."
	checkReplies(t, "What's next?", []replyCase{
		{advice, "the index is a separate PR, it's a migration on a 40M row table and I'm not doing that on a thursday.", ""},
		{advice, "miette looks cool but I'm not pulling in another dep before 0.1 ships, maybe later.", ""},
		{advice, "And we're not doing interstitials at launch, at all.", "We're not doing interstitials at launch, at all"},
		{advice, "Latency: I'll pull the data this week and we'll set thresholds at next Tuesday's sync.", ""},
		{advice, "weekly full refresh — maybe, want to see the credit cost first.", ""},
		{advice, "postmortems: we could probably reuse SRE's template.", ""},
		{advice, "Retention is the one I'm dreading.", ""},
		{advice, "We're replacing catalogue search for our shop.", ""},
		{advice, "We're replacing catalogue search with Typesense.", "We're replacing catalogue search with Typesense"},
	})
}

// TestSixthBatchForms checks the forms labelled conversations 279–309
// showed, and the false alarms they showed: "changed my mind: …", "no X,
// we put …", "But the plan: …", "I've bought …", "we're switching: …",
// "makes total sense", "skipping X", "(b).", "rip X out", "we go for X";
// a "Summary:" list in a first message, "don't … yet" inside a longer
// sentence, "I like the idea, but …", a gerund that is a subject, "we'll
// sort something out", "stays open", an open list item.
func TestSixthBatchForms(t *testing.T) {
	// "Summary:" opening a first message describes; only a reply recaps.
	incident := &conversation.Conversation{Messages: []conversation.Message{
		{Index: 0, Role: conversation.RoleUser, Content: "Need help with the review. Summary:\n- the limiter was merged at 14:02\n- nobody got paged"},
	}}
	if ds := New(nil, Options{}).Decisions(incident); len(ds) != 0 {
		t.Errorf("a first message's summary gave decisions %+v", ds)
	}
	const advice = "Options:\n(a) a lint rule\n(b) a PR check against last week's traffic\n\n" +
		"Keep exhausted deliveries in Postgres as failed. Ordering guarantees cost throughput. Hold US orders over 200 for review. " +
		"Hoka Speedgoats suit the race. Weekly trains would help Android. Astro fits marketing. Turborepo is optional. Springfox is dead. " +
		"Drip irrigation saves water. Glass plates can go to a supplier. Publishing can wait."
	checkReplies(t, "What now?", []replyCase{
		{advice, "hm. fine, changed my mind: exhausted deliveries stay in postgres as failed.", "exhausted deliveries stay in postgres as failed"},
		{advice, "no ordering guarantee, we put a per-customer seq number in the payload.", "No ordering guarantee"},
		{advice, "But the plan: every US order over 200, we put on hold and I check by hand.", "every US order over 200, we put on hold and I check by hand"},
		{advice, "so I've bought the Speedgoats.", "I've bought the Speedgoats"},
		{advice, "So after another round we're switching: weekly trains for both platforms.", "after another round we're switching: weekly trains for both platforms"},
		{advice, "astro for marketing makes total sense, marketing asked for mdx.", "astro for marketing"},
		{advice, "skipping turborepo, pnpm -r is plenty.", "skipping turborepo, pnpm -r is plenty"},
		{advice, "(b). Dana can build it this sprint.", "a PR check against last week's traffic"},
		{advice, "rip springfox out, no springdoc.", "Rip springfox out, no springdoc"},
		{advice, "OK, we go for drip, no more sprinklers.", "We go for drip, no more sprinklers"},
		{advice, "don't set up publishing yet, I need to ask Priya.", ""},
		{advice, "Glass plates: I like the idea of sending them out, but the trustees are nervous.", ""},
		{advice, "Keeping both platforms on the same train was non-negotiable for product.", ""},
		{advice, "the walker thing, we'll sort something out for the office days.", ""},
		{advice, "so the nonfiction stays open until January.", ""},
		{advice, "Where we landed:\n- Rollback: Marcus wants to see what the pipeline can do before we commit.", ""},
	})
}

// TestSeventhBatchForms checks the forms labelled conversations 311–341
// showed ("X, fine" after an "ok", "1 and 2 yes", "**1. …**" items, "off
// the list", "here's what I'm going to do:", "X is fine", "I take the X
// route", "I change X to Y", "we change to X", "… settles it: X", "X → Y"),
// and the cases a review of this work found wrong: a label after a comma
// at the end of a line (a panic), "won't", "a hard no to X", "Also we're
// not …", "Never heard of …", a date after "will be", "**B.**" options on
// lines of their own.
func TestSeventhBatchForms(t *testing.T) {
	const advice = "**1. Fixed wait in checkout**\nWait on the request.\n\n**2. Detached elements in search**\nQuery the list fresh.\n\n" +
		"A second Redis with noeviction is safer. Greenhouse suits tech hiring. Default page size 50 is fine. The München–Venezia route has the Dolomites. " +
		"A 38 chainring helps. Metabase Cloud Pro or Superset. Fastly runs your VCL. Report jobs could move to BullMQ. Postgres or MySQL."
	checkReplies(t, "What now?", []replyCase{
		{advice, "ok second redis with noeviction, fine.", "second redis with noeviction"},
		{advice, "1 and 2 yes.", "Fixed wait in checkout Wait on the request|Detached elements in search Query the list fresh"},
		{advice, "So Greenhouse is off the list.", "Greenhouse is off the list"},
		{advice, "default 50 is fine, cap it at 100.", "default 50"},
		{advice, "I take the München–Venezia route.", "I take the München–Venezia route"},
		{advice, "I take the numbers from the cash register.", ""},
		{advice, "Ok, I change the chainring to 38.", "I change the chainring to 38"},
		{advice, "So we change to Metabase Cloud Pro, the price is inside the budget.", "We change to Metabase Cloud Pro"},
		{advice, "The VCL point pretty much settles it: Fastly.", "Fastly"},
		{advice, "report → bullmq job scheduler, one less thing.", "report → bullmq job scheduler"},
		{advice, "that 10→20 drop scares me.", ""},
		{advice, "Long day. Ok, here's the plan:\n- use Postgres", "Use Postgres"},
		{advice, "Postgres won't scale for us.", ""},
		{advice, "A hard no to MySQL.", "Decided against: MySQL"},
		{advice, "Also we're not adding MySQL.", "We're not adding MySQL"},
		{advice, "Never heard of MySQL before.", ""},
	})
	const lettered = "**A.** Rewrite the filter as a range\n**B.** Add a composite index\n\nWhich?"
	checkReplies(t, "Which fix?", []replyCase{
		{lettered, "B.", "Add a composite index"},
	})
}

// TestPhrasingFamilies checks the tidier phrasings labelled conversations
// 343–373 were written to cover: "X wins:", "…, so from now on …", "it's
// been decided … that", "We've ruled out X", "The answer is X", "I'm sold
// on X", "count me in", "X gets the nod;", "We're killing X", "We're
// committing to X", "That's a yes to X: …", "…, but final answer: X", "I've
// made the call: …", "Approved for the first two: …", "that plan works for
// points 1 to 3: …", "we'll settle for X", "X will be removed in June", "X
// was chosen", "consensus is X", options in a table's first cell, "X is out
// of scope", a restatement after "Fine by me.".
func TestPhrasingFamilies(t *testing.T) {
	const advice = "| Option | What |\n|---|---|\n| (a) S3 gateway only | cheap |\n| (b) S3 plus interface endpoints | covers ECR |\n\n" +
		"Invalidate-on-write, or a short TTL. CDC with Debezium or a dump. Honeycomb or Tempo. Vite or Next.js. Avro with a registry. " +
		"Parquet in S3 loaded by Snowpipe. Layer-wise rates with a warmup. A reserved instance on the primary. Per-field last-write-wins with a log of overwritten values. " +
		"pnpm or npm workspaces. A shared schema with tenant_id."
	checkReplies(t, "What do we do?", []replyCase{
		{advice, "Invalidate-on-write wins: the API deletes the key on PriceChanged.", "Invalidate-on-write"},
		{advice, "Pricing publishes the event already, so from now on every cache key carries a version prefix.", "from now on every cache key carries a version prefix"},
		{advice, "It's been decided at the architecture review that the database moves to Postgres.", "It's been decided at the architecture review that the database moves to Postgres"},
		{advice, "We've ruled out a big-bang cutover.", "We've ruled out a big-bang cutover"},
		{advice, "The answer is CDC.", "The answer is CDC"},
		{advice, "I'm sold on Honeycomb.", "I'm sold on Honeycomb"},
		{advice, "Vite gets the nod; Next.js would be a rewrite.", "Vite"},
		{advice, "So we're killing laptop deploys.", "We're killing laptop deploys"},
		{advice, "We're committing to Avro with a registry.", "We're committing to Avro with a registry"},
		{advice, "That's a yes to the storage proposal: Parquet in S3, loaded by Snowpipe.", "Parquet in S3, loaded by Snowpipe"},
		{advice, "I went back and forth, but final answer: FULL_TRANSITIVE.", "FULL_TRANSITIVE"},
		{advice, "I've made the call: we're buying a one-year plan.", "We're buying a one-year plan"},
		{advice, "Yes, that plan works for points 1 to 3: layer-wise rates and a warmup.", "layer-wise rates and a warmup"},
		{advice, "For RDS we'll settle for a reserved instance on the primary.", "For RDS we'll settle for a reserved instance on the primary"},
		{advice, "On the API side, the v1 endpoint will be removed in June.", "On the API side, the v1 endpoint will be removed in June"},
		{advice, "pnpm was chosen at the guild meeting.", "pnpm was chosen at the guild meeting"},
		{advice, "We held a vote and consensus is a shared schema with tenant_id.", "a shared schema with tenant_id"},
		{advice, "Option (b) is the one.", "S3 plus interface endpoints"},
		{advice, "The Apple Watch app is out of scope, full stop.", "The Apple Watch app is out of scope"},
		{advice, "Fine by me. Per-field last-write-wins with a log of overwritten values, and a conflict screen only if needed.", "Per-field last-write-wins with a log of overwritten values, and a conflict screen only if needed"},
		{advice, "The old endpoint might be removed in June.", ""},
		// The passive under a hedge settles nothing (the case above never
		// matched the passive at all).
		{advice, "Maybe the old endpoint will be removed in June.", ""},
	})
}

// TestAnaphorWithTimeWords checks that "that" followed by "in" or a time
// ("lock that in as …", "signed off on that yesterday") still points
// elsewhere: resolved to the statement before it, or the decision dropped.
func TestAnaphorWithTimeWords(t *testing.T) {
	const advice = "Early stopping on validation macro-F1 would fix the spikes."
	checkReplies(t, "What next?", []replyCase{
		{advice, "I ran it with early stopping on validation macro-F1 and patience 5. Let's lock that in as the rule for the sweep.", "I ran it with early stopping on validation macro-F1 and patience 5"},
		// No proposal to point at: dropped, not recorded as "signed off on that".
		{advice, "Our compliance lead signed off on that yesterday.", ""},
	})
}

// TestPutOff checks decisions put off in words the last blind batch
// (375–405) used: "agreed to park X", "we'll choose between X and Y once …",
// list items left open ("Signing is split", "nobody has looked yet",
// "leaned towards X, but procurement wants a second quote"), "not doing X
// yet".
func TestPutOff(t *testing.T) {
	const advice = "TaxDome or SmartVault. Power of 80 or 90. Cosign or Notation for signing. KnowBe4 or the E5 upgrade. FIDO2 keys for the shop floor."
	checkReplies(t, "What did you decide?", []replyCase{
		{advice, "Maria agreed to park TaxDome for now.", ""},
		{advice, "The PI said we'll choose between 80 and 90 once the feasibility numbers come in.", ""},
		{advice, "Here's where we landed:\n- Signing is split: half the room wants cosign\n- Admission controller: nobody has looked yet\n- Phishing sims: most of the room leaned towards KnowBe4, but procurement wants a second quote\n- Shop floor: we're not doing keys for them yet", ""},
		{advice, "Here's where we landed:\n- SmartVault for documents\n- Shop floor: we're not doing keys for them yet", "SmartVault for documents"},
	})
}

// TestOkThen checks a choice named between "ok" and "then" ("so ok SEV2
// then"), and what only looks like one.
func TestOkThen(t *testing.T) {
	const answer = "By your matrix this is SEV2, not SEV1: checkout degraded for a fifth of users. The review could be Friday or Monday."
	checkReplies(t, "SEV1 or SEV2?", []replyCase{
		{answer, "our matrix says SEV1 is for most users, so ok SEV2 then. that works, thanks", "SEV2"},
		{answer, "alright, Friday then.", "Friday"},
		{answer, "ok see you then.", ""},
		{answer, "ok what then?", ""},
		{answer, "ok then.", ""},
		{answer, "ok SEV2 then we page the whole team?", ""},
		{answer, "ok pizza then.", ""}, // never said: no choice among what was laid out
		{answer, "ok SEV1 vs SEV2 then — walk me through the difference.", ""},
		{answer, "ok SEV1 or SEV2 then, which one pages?", ""},
	})
}

// TestAssentIsNoReason: a sentence that only says yes after a decision
// ("that works, thanks") reads like a reason ("that works …") but is none.
func TestAssentIsNoReason(t *testing.T) {
	e := New(nil, Options{})
	for _, tt := range []struct{ reply, why string }{
		{"Meilisearch it is. That works for me, thanks!", ""},
		{"Meilisearch it is. that works, cheers", ""},
		{"Meilisearch it is. It keeps typo tolerance without tuning.", "It keeps typo tolerance without tuning"},
	} {
		ds := e.Decisions(convOf(turn{"u", "Meilisearch or Typesense?"}, turn{"a", "Meilisearch is simpler to run; Typesense is faster."}, turn{"u", tt.reply}))
		if len(ds) != 1 || ds[0].Rationale != tt.why {
			t.Errorf("%q: decisions %+v, want one because %q", tt.reply, ds, tt.why)
		}
	}
}

// TestProposedList checks a list the assistant announces as a proposal
// ("Proposed backup policy:"), taken by a yes that names what it is for;
// from the user such a list is no decision yet.
func TestProposedList(t *testing.T) {
	const policy = "Design for the likely failures.\n\nProposed backup policy:\n- Daily snapshots kept 35 days\n- Monthly snapshots kept 12 months\n\nMulti-AZ is worth it if you can afford it."
	checkReplies(t, "What about backups?", []replyCase{
		{policy, "yep, do that for the backups. Multi-AZ I'll run past our CFO.", "Daily snapshots kept 35 days; Monthly snapshots kept 12 months"},
		{policy, "Yes, do that.", "Daily snapshots kept 35 days; Monthly snapshots kept 12 months"},
		// What "that" is for follows it; it is resolved all the same.
		{policy, "We'll do that for the backups.", "Daily snapshots kept 35 days; Monthly snapshots kept 12 months"},
		{policy, "ok, we'll go with that for our staging cluster, prod later.", "Daily snapshots kept 35 days; Monthly snapshots kept 12 months"},
		{"My recommendation:\n- Sentry for errors\n- Loki for logs", "Sounds good, let's do that.", "Sentry for errors; Loki for logs"},
		{policy, "Hmm, the snapshots worry me.", ""},
		{"Suggested options:\n- Redis\n- Memcached", "Sounds good, let's do that.", ""},
		{"Recommended against:\n- Running Kafka yourself\n- Self-hosting Elasticsearch", "Agreed, let's do that.", ""},
	})
	e := New(nil, Options{})
	c := convOf(turn{"u", "Proposed agenda for Friday:\n- the Q3 budget\n- hiring a second SRE"}, turn{"a", "Looks complete."})
	if ds := e.Decisions(c); len(ds) != 0 {
		t.Errorf("a list the user proposes gave decisions %+v", ds)
	}
}

// TestStaysSaidTurnsAgo: a thing the assistant laid out turns ago, kept or
// moved in a later reply, is a decision; a thing nobody mentioned is news.
func TestStaysSaidTurnsAgo(t *testing.T) {
	e := New(nil, Options{})
	for _, tt := range []struct{ reply, want string }{
		{"ok checked: the call says bios don't count toward the 5 pages, so the bios are going into the appendix.", "the bios are going into the appendix"},
		{"the fan goes into the cupboard at night.", ""},
		// Said before, but only by the user: news, not a decision.
		{"the laptop stays on all night though, and the build goes into a loop.", ""},
		{"the laptop build stays up for hours and then dies.", ""},
		// Said earlier in the same message, then concluded with "so".
		{"the CI workers only have 3.11 wheels. so workers go to 3.11, the web app to 3.12.", "workers go to 3.11, the web app to 3.12"},
	} {
		c := convOf(
			turn{"u", "How should I restructure the grant proposal? My laptop build is slow."},
			turn{"a", "Move team bios to an appendix if the call allows it, and keep a short Team paragraph."},
			turn{"u", "And the budget?"},
			turn{"a", "Make the budget justification its own section."},
			turn{"u", tt.reply})
		got := decisionTexts(e, c)
		if strings.Join(got, "|") != tt.want {
			t.Errorf("%q: decisions %q, want %q", tt.reply, got, tt.want)
		}
	}
}

// TestAnaphorPutOffOrSkipped: "that" put off is no decision, "that"
// skipped is one against, and what "that" is for is no time ("for the next
// sprint") or aside ("for the record").
func TestAnaphorPutOffOrSkipped(t *testing.T) {
	const answer = "Here's what I'd do: put the queue in Postgres with SKIP LOCKED."
	checkReplies(t, "Queue?", []replyCase{
		{answer, "Let's shelve that for the next release.", ""},
		{answer, "Let's shelve that.", ""},
		{answer, "We'll park it.", ""},
		{answer, "Let's save that for the next sprint.", ""},
		{answer, "I'll do that for the record.", ""},
		{answer, "We'll skip that for the backups.", "Decided against: put the queue in Postgres with SKIP LOCKED"},
		{answer, "Let's do that for now.", "put the queue in Postgres with SKIP LOCKED"},
	})
}

// TestPickedByName checks a reply that opens with one of the alternatives
// the assistant laid out by name in bold, after the user asked how they
// differ.
func TestPickedByName(t *testing.T) {
	const options = "I'd lean toward PostgreSQL. For the ORM, Drizzle and Kysely both fit; want me to compare them?"
	const compared = "Short version:\n\n**Drizzle**\n- Tables declared in TypeScript.\n\n**Kysely**\n- Only a query builder.\n\n**Rule of thumb:** if you want the schema to live in code, pick Drizzle. If you prefer the database to be the source of truth, pick Kysely."
	var cases []turnsCase
	for _, tt := range []struct{ reply, want string }{
		{"drizzle, we like having the schema in ts. next thing: should we do tenants from day one?", "drizzle"},
		{"Kysely.", "Kysely"},
		{"drizzle or kysely, what would you pick?", ""},
		{"ok thanks, still not sure.", ""},
	} {
		cases = append(cases, turnsCase{tt.reply, []string{"Which ORM for the invoicing app?", options, "between drizzle and kysely idk, whats the difference really", compared, tt.reply}, tt.want})
	}
	checkTurns(t, cases)
}

// TestLabelsResolved checks that a decision never stands as a bare label:
// "option 2", "A is out" and "B makes sense" become what the assistant laid
// out under the label (a table's row, a list's line), or nothing; a yes to
// a problem's item takes its proposed fix; a one-word pick of an everyday
// word says what it picks ("Summary cadence: weekly"), and "plan 1" is the
// plan its heading lays out.
func TestLabelsResolved(t *testing.T) {
	const numbered = "Options:\n\n| # | Server state | Client state | Notes |\n|---|---|---|---|\n| 1 | TanStack Query | Zustand | Popular combo |\n| 2 | TanStack Query | React context + `useReducer` | No extra dependency |\n\nMy recommendation: option 1."
	const later = "Filters fit the URL. With that little left, **option 2 (context + `useReducer`)** is entirely reasonable."
	const lettered = "### Options\n\n| | Approach | Cost |\n|---|---|---|\n| **A** | Increase Flink allowed lateness | Big state |\n| **B** | **Side output** late events | Low |\n\nI'd go with **B**."
	const problems = "I see three causes.\n\n**1. Fixed wait in checkout** (`checkout.cy.ts`, line 42)\n```ts\ncy.wait(2000)\n```\nWhen `/api/cart` is slow the button is disabled. Proposed fix: wait on the request instead of the clock.\n\n**2. Shared state between tests**\nBoth specs log in as the same user. Proposed fix: a `cy.task('db:reset')` in `beforeEach`.\n\nShall I apply both?"
	const cadence = "## Summary cadence\n- **Daily** summaries feel like nagging.\n- **Weekly** summaries feel like a reward.\n\n## Streak rules\n- Strict midnight is simple."
	const plans = "Three ways to use them:\n\n### Plan 1: Mountains first\nHanoi 2 · Ha Giang 4 · Hoi An 3\n→ The best nature.\n\n### Plan 2: Culture & food\nHanoi 3 · Hue 2 · Hoi An 3\n\nI'd go with **Plan 1**."
	const stores = "## Vector store\n- Pinecone is hosted.\n\n## Embedding model\n- A small model is enough, pgvector stores it.\n\nI'd go with **pgvector**."
	checkReplies(t, "What now?", []replyCase{
		{numbered, "option 2 it is then, not worth another dependency for 3 booleans.", "TanStack Query; React context + useReducer"},
		{lettered, "A is out, our state is already 40GB.", "Decided against: Increase Flink allowed lateness"},
		{lettered, "B makes sense.", "Side output late events"},
		{"Sounds good, happy to help with either.", "option 2 it is then.", ""},
		{problems, "1 yes. 2 no, a full reseed is too slow.", "Fixed wait in checkout: wait on the request instead of the clock|Decided against: Shared state between tests: a `cy.task('db:reset')` in `beforeEach`"},
		{cadence, "weekly then. sunday evening, like 7pm.", "Summary cadence: weekly"},
		{cadence + "\n- A weekly freeze forgives one miss.", "weekly then. sunday evening, like 7pm.", "weekly"}, // under two headings: which one is unclear
		{plans, "plan 1. can we squeeze ninh binh in somehow?", "Plan 1: Mountains first: Hanoi 2 · Ha Giang 4 · Hoi An 3"},
		{stores, "pgvector.", "pgvector"},
	})
	// A label taken turns after the table that laid it out.
	checkOverreach(t, []overreachCase{
		{[]string{"State management options?", numbered, "server state w/ tanstack query yes. would url state make sense for the filters?", later, "option 2 it is then."}, "TanStack Query; React context + useReducer"},
	})
}

// TestRepliesStillMissed checks reply forms the tuning half still missed:
// "not doing X" without its subject, and a "decided …:" line that names
// when or with whom, announcing the list below it.
func TestRepliesStillMissed(t *testing.T) {
	const advice = "Vector or the OTel Collector can be the gateway. SmartVault handles documents; DocuSign does signatures."
	checkReplies(t, "What do you suggest?", []replyCase{
		{advice, "not doing vector. team doesnt want to learn VRL.", "not doing vector"},
		{advice, "not doing that.", ""},
		{advice, "not reopening vector unless the bundle is really cheap.", ""},
		{advice, "ok, nothing changes on the agents then.", ""}, // "nothing" is no change under way
		{advice, "OK, decided after going through it with Maria this morning:\n- SmartVault for document management.\n- No DocuSign.", "SmartVault for document management|No DocuSign"},
		{advice, "OK, decided after going through it with Maria this morning, it was a long call. Anyway:\n- SmartVault is slow.", ""},
	})
}

// TestCompoundSplit checks a user's decision of two clauses joined by ",
// and", each settling something: split in two, the second taking the
// first's subject where it has none.
func TestCompoundSplit(t *testing.T) {
	const advice = "Holm or Bonferroni for the secondary outcomes; keep everyone in the main analysis. A priced round or a SAFE."
	checkReplies(t, "What now?", []replyCase{
		{advice, "Then we go with Holm for the three secondary outcomes, and all 24 participants stay in the main analysis.",
			"We go with Holm for the three secondary outcomes|all 24 participants stay in the main analysis"},
		{advice, "We're switching to the priced round, and raising $2.5M, not 1.5.", "We're switching to the priced round|We're raising $2.5M, not 1.5"},
		{advice, "We're switching to the priced round, and nothing reaches the SAFE holders before we sign.", "We're switching to the priced round, and nothing reaches the SAFE holders before we sign"},
		{advice, "We go with Holm, and it will be slower to explain.", "We go with Holm"},
		{advice, "We go with Holm for the outcomes, and the bootstrap would stay if we had time.", "We go with Holm for the outcomes"},
	})
}

// TestForget checks a thing dropped with "forget X" or "X is off", X one
// the assistant named, and what only looks like it.
func TestForget(t *testing.T) {
	const advice = "The MG4 is cheap to run; the Corolla is reliable. Wolf Ridge is an overnight camp; the capitol is a day trip."
	checkReplies(t, "Which one?", []replyCase{
		{advice, "yeah forget the corolla, the boot is a joke.", "Decided against: the corolla"},
		{advice, "principal killed overnight trips. so wolf ridge is off, nothing I can do.", "Decided against: wolf ridge"},
		{advice, "forget it, I'll ask my wife.", ""},
		{advice, "forget about the budget, what about chaperones?", ""}, // a question
		{advice, "the heating is off at night.", ""},                    // never named
	})
}

// TestActionAdviceAccepted checks a change the answer advises in its first
// words, in the imperative or after "I'd", taken by a plain yes; an "ok"
// that acknowledges, a step of finding out, and an "I'd" that is no advice
// take nothing.
func TestActionAdviceAccepted(t *testing.T) {
	const index = "Add a composite index on (customer_id, created_at) and run the ETL per month in parallel. That keeps each job under ten minutes."
	const partition = "I'd partition the orders table by month. That keeps each job short."
	checkReplies(t, "Our nightly ETL keeps timing out on the orders table.", []replyCase{
		{index, "Do that.", "Add a composite index on (customer_id, created_at) and run the ETL per month in parallel"},
		{index, "Yes.", "Add a composite index on (customer_id, created_at) and run the ETL per month in parallel"},
		{index, "Sounds good, go ahead.", "Add a composite index on (customer_id, created_at) and run the ETL per month in parallel"},
		{index, "ok, thanks.", ""},
		{index, "Yes, please.", "Add a composite index on (customer_id, created_at) and run the ETL per month in parallel"},
		{index, "Sure.", "Add a composite index on (customer_id, created_at) and run the ETL per month in parallel"},
		{index, "Sure, go ahead.", "Add a composite index on (customer_id, created_at) and run the ETL per month in parallel"},
		{index, "Sure, thanks.", ""},
		{index, "Would that lock the table?", ""},
		{partition, "Yes.", "Partition the orders table by month"},
		{"Run EXPLAIN ANALYZE on the query and paste the output here.", "Do that.", ""},
		{"I'd like to see the query plan first.", "Yes.", ""},
		{"I'd be careful with partitioning here.", "Sounds good.", ""},
		// A reviewer's probes: a noun first, a later question the yes
		// answers, an "I'd" that is no advice, steps of finding out, code
		// to come, a choice still open, a reason after a semicolon, a yes
		// that puts the change off.
		{"Cache misses are the likely cause. Do you see the hit rate in Grafana?", "Yes.", ""},
		{"Index bloat is the likely cause here. Have you run VACUUM recently?", "Yes.", ""},
		{"Add a composite index on (customer_id, created_at). Do you already have an index on customer_id?", "Yes.", ""},
		{"I'd add that the index won't help writes.", "Yes.", ""},
		{"I'd start by checking the logs for OOM kills.", "Yes.", ""},
		{"Move fast here: the certificate expires tomorrow.", "Yes.", ""},
		{"Add a print statement before the loop to see what value it gets.", "Yes.", ""},
		{"Enable slow query logging and send me what shows up.", "Do that.", ""},
		{"Add the following import at the top of the file:\n\n```go\nimport \"os\"\n```", "Yes.", ""},
		{"Add a composite index on (customer_id, created_at), or partition by month. Both cut the runtime.", "Yes.", ""},
		{"Replace the HDD with an SSD; it's the cheapest fix.", "Yeah, do it.", "Replace the HDD with an SSD"},
		{index, "Yes, but let's hold off until after the release.", "Let's hold off until after the release"},
	})
}

// TestBareLetterOptionsAndThenComma checks options labelled "A." on their
// own lines, which the sentence splitter cuts at the label's period, and a
// reply naming its pick before "then," with details, a way to go about it,
// or a reason after the comma.
func TestBareLetterOptionsAndThenComma(t *testing.T) {
	const letters = "Three ways to go:\n\nA. Extract a full auth service: owns users. Cleanest end state.\nB. Keep auth in the monolith but make it a token issuer: it mints JWTs.\nC. Adopt an identity server.\n\nI'd start with B: the Go services get identity now."
	const pool = "I'd do option 1: put PgBouncer in transaction mode in front of Postgres. Sentry SaaS on the EU region avoids the residency question."
	checkReplies(t, "Which way?", []replyCase{
		{letters, "B.", "Keep auth in the monolith but make it a token issuer"},
		{letters, "Fine.", "Keep auth in the monolith but make it a token issuer"},
		{"Ask J. Smith first.\nC. Jones knows the schema too.", "Sure.", ""},
		{pool, "PgBouncer as a sidecar then, transaction mode, pool size 20.", "PgBouncer as a sidecar, transaction mode, pool size 20"},
		{pool, "PgBouncer then, put it in front of Postgres on each node.", "PgBouncer, put it in front of Postgres on each node"},
		{pool, "Sentry SaaS on the EU region then, self-hosting isn't happening.", "Sentry SaaS on the EU region"},
		{pool, "See you Friday then, bye.", ""},
		{pool, "PgBouncer or Sentry then, which first?", ""},
		{pool, "A new broker then, nobody has run one here.", ""},
		// A reviewer's probes: options that are questions or lack a
		// period, requests and sign-offs after "then,".
		{"A few questions first:\n\nA. Is the data append-only? That matters.\nB. Roughly how many rows a month?", "A. Yes, append-only.", ""},
		{"Two options:\n\nA. Use Redis\nB. Use Postgres\n\nI'd go with B.", "A.", "Use Redis"},
		{"Two options:\n\nA. Use Redis\nB. Use Postgres\nC. Use Kafka\n\nI'd go with B.", "B.", "Use Postgres"},
		{"Two options:\n\nA. Use Redis\nB. Use Postgres\nC. Use Kafka\n\nI'd go with B.", "C.", "Use Kafka"},
		{"Put the meeting notes in the wiki. Next week we can revisit the budget.", "The meeting notes then, summarise them for me.", ""},
		{"Put the meeting notes in the wiki. Next week we can revisit the budget.", "Next week then, I'll report back.", ""},
		{"Put the meeting notes in the wiki. Next week we can revisit the budget.", "Back to the budget then, walk through the numbers.", ""},
		{pool, "PgBouncer then, thanks!", "PgBouncer"},
		{pool, "PgBouncer then, go ahead and set it up.", "PgBouncer"},
		{pool, "PgBouncer then, the memory matters more.", "PgBouncer"},
		{pool, "PgBouncer then, but let me check with the team first.", ""},
	})
}

// TestSharesAndPurposes checks a reply giving something its share ("X
// gets the Y"), a pick for a purpose ("Nunito for the wordmark"), a plan
// announced with a long name, and "that plan works"; reports of how
// things are, thanks and apologies take nothing.
func TestSharesAndPurposes(t *testing.T) {
	const invite = "1. Random sample of 5,500 with two reminders.\n2. Invite everyone: anonymous calls on /search then get 60 a minute.\n\nVite or Next.js both work for the build."
	const fonts = "- **Nunito**: rounded sans, friendly.\n- **Atkinson Hyperlegible**: very clear at a distance."
	checkReplies(t, "What now?", []replyCase{
		// A share given in general reads as often as a report of how things
		// are ("each invoice gets a reference number, that's how Xero
		// works"): only a pick that gets the nod is taken.
		{invite, "Everyone gets the invite — sampling would annoy the rest.", ""},
		{invite, "Each invoice gets a reference number, that's how Xero works.", ""},
		{invite, "Vite gets the nod; Next.js would be a rewrite.", "Vite"},
		{invite, "Everyone gets confused by the invite.", ""},
		{invite, "It gets a lot of anonymous calls.", ""},
		{invite, "Each reminder gets the invite link today.", ""},
		{fonts, "Nunito for the wordmark — it looked friendly on the van.", "Nunito for the wordmark"},
		{fonts, "Thanks for the list.", ""},
		{fonts, "Sorry for the delay, I was away.", ""},
		{fonts, "Comic Sans for the wordmark, obviously not.", ""},
		{"Proposed grandfather-father-son rotation:\n\n- Daily: incrementals Mon–Thu.\n- Weekly: a full every Friday.", "Do that.", "Daily: incrementals Mon–Thu; Weekly: a full every Friday"},
		{"I recommend a token bucket per API key.", "That plan works.", "a token bucket per API key"},
	})
}

// TestTenthBatchForms checks the forms the tenth blind batch showed: a
// "skip" that names what it skips, a group's agreement "last night", one
// more pick after "then,", a pick named with "then" between commas, a
// pick of options laid out turns ago, what an acceptance leaves out, and a
// user's "Then we keep X" that concludes (not a step of a process).
func TestTenthBatchForms(t *testing.T) {
	const ci = "For the changelog, towncrier or a hand-written file both work. Then raise the CPU limit rather than remove it, and add a startup probe. Alert on time lag in seconds, or on message count. Keep golang-migrate; Flyway adds a JVM."
	checkReplies(t, "What now?", []replyCase{
		{ci, "Skip towncrier.", "Skip towncrier"},
		{ci, "Skip.", ""},
		{ci, "Good. The committee agreed last night that the changelog goes on the website.", "The committee agreed last night that the changelog goes on the website"},
		{ci, "Limit of 2 then, and the startup probe.", "Limit of 2, and the startup probe"},
		{ci, "Time lag, then, since our topics vary a thousandfold.", "Time lag"},
		{ci, "Then we keep golang-migrate.", "We keep golang-migrate"},
		{ci, "Then we keep the token to call the API with.", ""},
		{"Suggested setup:\n\n- 1 point per £1 spent.\n- Double points on event nights.", "Fine, go ahead with that, minus the double points.", "1 point per £1 spent|Decided against: double points"},
		{"Suggested setup:\n\n- 1 point per £1 spent.\n- Double points on event nights.", "Do that, except skip the double points.", "1 point per £1 spent|Skip the double points"},
		{"Suggested setup:\n\n- Build the image on every push.\n- Cache the layers.", "Yes, do that plan, except the image build — we need it on PRs.", "Cache the layers|Decided against: image build"},
	})
	checkTurns(t, []turnsCase{{"NAS then, from the first answer", []string{
		"Where do the X-rays go?",
		"Two options: a mirrored 2-bay NAS with nightly backup to B2, or the vendor's cloud archive.",
		"The vendor wants €90 a month. Is the USB drive enough meanwhile?",
		"Better than nothing; encrypt it with BitLocker now.",
		"NAS then, because €90 a month costs more than the NAS within a year.",
	}, "NAS"}})
}

// TestRoundTwoProbes holds a reviewer's probes of the forms above, each a
// row that failed before its mend: a purpose that runs on into a clause,
// an idiom, a refusal, a description of a setup, a hedge; an acceptance
// "without a doubt" or "except the voucher is too generous"; a skip of the
// conversation's own parts; a "then we …" that goes on as a process; a
// remark on the user's own setup taken as a yes.
func TestRoundTwoProbes(t *testing.T) {
	const db = "Postgres for the main DB and Redis for the cache, or MySQL for the main DB. Postgres is solid."
	const loy = "Suggested setup:\n\n- 1 point per £1 spent.\n- Double points on event nights.\n- A birthday voucher."
	const dep = "First you build the image, then you push it to the registry. For the changelog, towncrier works. Start with an intro section."
	checkReplies(t, "Which?", []replyCase{
		{db, "Redis for the cache would be too expensive.", ""},
		{db, "Redis for the cache makes no sense for us.", ""},
		{db, "Postgres for the record, has been flaky for us.", ""},
		{db, "Redis for the cache, no way.", "Decided against: Redis for the cache"},
		{db, "Currently Postgres for the main DB, MySQL for the reporting.", ""},
		{db, "Redis for the cache, if the budget allows.", ""},
		{db, "Postgres for the main DB, maybe.", ""},
		{db, "Redis for the cache.", "Redis for the cache"},
		{loy, "Sounds good, without a doubt.", "1 point per £1 spent; Double points on event nights; A birthday voucher"},
		{loy, "Sounds good, except the voucher is too generous.", "1 point per £1 spent; Double points on event nights; A birthday voucher"},
		{loy, "Go ahead, without the app.", "1 point per £1 spent; Double points on event nights; A birthday voucher"},
		{loy, "Go ahead, minus the birthday voucher.", "1 point per £1 spent; Double points on event nights|Decided against: birthday voucher"},
		{dep, "Skip the intro.", ""},
		{dep, "Skip to the end please.", ""},
		{dep, "Then we use kubectl apply, and the pods restart.", ""},
		{dep, "Then we keep the old pods running until the new ones are healthy.", ""},
		{"I recommend a token bucket per API key.", "The setup is fine, the problem is elsewhere.", ""},
		{"PgBouncer as a sidecar or pgpool; PgBouncer is lighter.", "PgBouncer then, and the question of monitoring.", "PgBouncer"},
	})
}

// TestAcceptedWithAChange checks a yes with a change after a dash ("Agreed
// — but raw stays 180 days"), the change being a statement of how a thing
// will be or, after advice, a change verb; the change survives the length
// limit, and the sentence yields nothing else.
func TestAcceptedWithAChange(t *testing.T) {
	const setup = "Suggested setup:\n\n- Hypertable with 1-day chunks.\n- Raw data kept for 90 days."
	const seats = "Hold back 60 seats for singers' families, released to general sale two weeks before the concert."
	long := "Suggested setup:\n\n- " + strings.Repeat("Hypertable with 1-day chunks and compression after seven days ", 4) + ".\n- Raw data kept for 90 days."
	checkReplies(t, "What now?", []replyCase{
		{setup, "Agreed — but raw stays 180 days.", "Hypertable with 1-day chunks; Raw data kept for 90 days — but raw stays 180 days"},
		{seats, "Agreed — but cap it at 2 per singer.", "Hold back 60 seats for singers' families, released to general sale two weeks before the concert — but cap it at 2 per singer"},
		{seats, "Sure — but let's wait for the vicar.", ""},
		{setup, "Agreed — but is 90 days enough?", ""},
	})
	got := decisionTexts(New(nil, Options{}), conv("What now?", long, "Agreed — but raw stays 180 days."))
	if len(got) != 1 || !strings.HasSuffix(got[0], " — but raw stays 180 days") {
		t.Errorf("a long proposal amended: %q, want it to end with the change", got)
	}
}

// TestEleventhBatchForms checks forms from the eleventh batch: a swap to a
// thing named, a pick of two parts before "then,", and a number set
// against the one proposed ("Make the overdue flag 60 days, not
// 45"); and their look-alikes.
func TestEleventhBatchForms(t *testing.T) {
	const kegs = "Use laminated polyester labels or vinyl ones on the keg skirts. Flag kegs at an account for more than 45 days. Name events in snake_case object_action form, past tense. The theme could be Furo."
	checkReplies(t, "What now?", []replyCase{
		{kegs, "The weather's fine.", ""},
		{kegs, "And swap the theme to Furo while we're in there.", "Swap the theme to Furo"},
		{kegs, "Swap to vinyl.", "Swap to vinyl"},
		{kegs, "snake_case object_action, past tense then, the analysts live in the warehouse.", "snake_case object_action, past tense"},
		{kegs, "Make the overdue flag 60 days, not 45, our slower pubs take that long.", "Make the overdue flag 60 days, not 45"},
		{kegs, "Make sure it flags at 60 days, not 45.", ""},
		{kegs, "Make the overdue flag 60 days, not 30.", ""},
	})
	// A swap's reason after a dash is its reason, as for the other forms.
	ds := New(nil, Options{}).Decisions(conv("What now?", kegs, "Swap to vinyl — it peels less in the cold."))
	if len(ds) != 1 || ds[0].Decision != "Swap to vinyl" || ds[0].Rationale != "it peels less in the cold" {
		t.Errorf("swap with a reason: %+v", ds)
	}
}

// TestRoundThreeProbes holds a third reviewer's probes of the forms above,
// each a row that failed before its mend: a "yes, but" that remarks,
// conditions, puts off or uses an idiom; a unit that took the next word; a
// pick of two parts that is an interjection and a thing; a state reported
// as fine; a swap of nothing discussed.
func TestRoundThreeProbes(t *testing.T) {
	const setup = "Suggested setup:\n\n- Hypertable with 1-day chunks.\n- Raw data kept for 90 days."
	const kegs = "Use laminated polyester labels or vinyl ones on the keg skirts. Flag kegs at an account for more than 45 days. Give it a 20% margin."
	const batt = "The reading may be off because the battery is weak. Check the voltage with a multimeter."
	checkReplies(t, "What now?", []replyCase{
		{setup, "OK — but the budget remains tight.", ""},
		{setup, "Sure — but keep it in mind for later.", ""},
		{setup, "Yes — but only if finance agrees.", ""},
		{setup, "Agreed — but raw stays 180 days. We'll use Grafana for the dashboards.", "Hypertable with 1-day chunks; Raw data kept for 90 days — but raw stays 180 days|We'll use Grafana for the dashboards"},
		{kegs, "Make the overdue flag 60 days, not 45 or 30.", "Make the overdue flag 60 days, not 45"},
		{kegs, "Make the overdue flag 60 days, not 45 because pubs pay late.", "Make the overdue flag 60 days, not 45"},
		{kegs, "Make the margin 25%, not 20%.", "Make the margin 25%, not 20%"},
		{kegs, "Make the flag 60 days, not 45, if the pubs agree.", ""},
		{kegs, "Ugh, the labels then, that's the last open item.", ""},
		{kegs, "Sam, polyester labels then, the vinyl ones peel.", ""},
		{batt, "The battery's fine.", ""},
		{batt, "Swap places with me.", ""},
		{batt, "Swap out the battery and check again.", ""},
		// "Agreed —" opens a label whose text is the decision, unless that
		// text doubts, puts off or checks first (these were taken before
		// this session too).
		{setup, "Agreed — but honestly I'm not sure.", ""},
		{setup, "Agreed — honestly I'm not sure.", ""},
		{setup, "Agreed — but hold off until Monday.", ""},
		{setup, "Agreed — but not yet.", ""},
		{setup, "Agreed — but we need to check with finance first.", ""},
		{setup, "Agreed — raw data is kept for 180 days.", "Hypertable with 1-day chunks; Raw data kept for 90 days|raw data is kept for 180 days"},
	})
}

// TestTwelfthBatchForms checks what the twelfth batch showed: a
// concession before ", but" is no part of the decision (unless the decision
// points back into it), a clause after a dash is its reason (details after
// a dash stay), and "we'll argue it out" is a talk to come; then a
// reviewer's probes: only a concession is cut ("SQLite for now, but we'll
// move to Postgres" stays whole), "— that's final" and "— the one that
// costs $40" are no reasons, "we'll hash passwords with argon2" is a
// decision.
// TestFourteenthBatchForms: the forms the fourteenth blind batch showed, a
// currency or a percentage where a name was looked for, and a dash or
// semicolon where a comma was.
func TestFourteenthBatchForms(t *testing.T) {
	checkReplies(t, "Which?", []replyCase{
		{"Drop the take-home; merge the phone screen into pairing.", "The take-home goes — candidates hate it.", "The take-home goes"},
		{"Drop the take-home; merge the phone screen into pairing.", "The take-home goes the way of the dodo eventually, I suppose.", ""},
		{"Put the remaining £500 into a Shopping campaign.", "Fair enough. The £500 goes into a Shopping campaign for our top 50 products.", "The £500 goes into a Shopping campaign for our top 50 products"},
		{"Influencer codes at 10% or 15%.", "The margin won't take 15%. So it's 10% codes, one per influencer.", "10% codes, one per influencer"},
		{"£24 or £26 a month.", "Weekends in, as you said, and £26 it is.", "£26"},
		{"Daily or weekly blocks on a four-week cycle.", "Weekly blocks, then; with daily changes everyone would be rebooking staff.", "Weekly blocks"},
		{"Daily or weekly blocks on a four-week cycle.", "Weekly blocks, then; what about the Friday slot?", ""}, // the sentence asks
		{"£24 or £26 a month.", "And if £26 it is, who tells the members?", ""},
		// A yes beside a no, and a remark after the yes.
		{"They offer the sponsor logo on the shirt front, and a back-of-shorts print for £2 a pair.", "Sponsor logo on the shirt front, yes; the back-of-shorts print, no — nobody looks at it.", "Sponsor logo on the shirt front|Decided against: the back-of-shorts print"},
		{"Pin the base image by digest and let Renovate update it.", "Pin by digest, yes, but no Renovate; Dependabot already does it.", "Pin by digest|Decided against: Renovate"},
		{"Pin the base image by digest and let Renovate update it.", "Pin by digest, yes, but not before the release.", ""},
		{"Open visiting from 9 to 8, with protected mealtimes.", "Open visiting and the protected mealtimes, yes — and you're right about the relatives.", "Open visiting and the protected mealtimes"},
	})
	// Answering a question, a fact with its yes is no decision.
	checkTurns(t, []turnsCase{{"facts", []string{"LMS?", "Do the students have Google accounts? Chromebooks?", "The students have Google accounts from the school, yes, but no Chromebooks."}, ""}})
}

// TestRoundFourProbes: a review's probes of the thirteenth batch's forms,
// looser and narrower than they should have been ("One primary and two read
// replicas behind PgBouncer: that's our setup" answering how things are,
// "B, with the 14 day retention as you wrote", "The bill rises to $400",
// "So it's the label printer" after a diagnosis, "Easiest: … — but I
// wouldn't", "is exactly what we wanted to avoid"), each a row.
func TestRoundFourProbes(t *testing.T) {
	const logs = "Two options:\n\nA. Ship everything to S3 with a 90 day retention.\nB. Keep them in Loki with a 14 day retention."
	const plan = "Page only on SLO burn-rate alerts. Version in the URL, in a header, or evolve additively. A handheld scanner with printed labels. Set auto-suspend on the BI warehouse to 60 seconds. A nightly embedding job for new items. Diff the spec in CI. Payment terms: a 25% deposit. Doppler, or 1Password service accounts with op inject."
	checkTurns(t, []turnsCase{
		{"pickwith-asWritten", []string{"Which?", logs, "Option B, with the 14 day retention as you wrote."}, "Keep them in Loki with a 14 day retention"},
		{"pickwith-reason", []string{"Which?", logs, "B, with 3 engineers on the team we can't run S3 lifecycle stuff."}, "Keep them in Loki with a 14 day retention"},
		{"pickwith-nocomma", []string{"Which?", logs, "B but with a 30 day retention."}, "Keep them in Loki with a 14 day retention — but with a 30 day retention"},
		{"pickwith-dash", []string{"Which?", logs, "B — but with a 30 day retention."}, "Keep them in Loki with a 14 day retention — but with a 30 day retention"},
		{"pickwith-letsgo", []string{"Which?", logs, "Let's go with B, but with a 30 day retention."}, "Keep them in Loki with a 14 day retention — but with a 30 day retention"},
		{"back-currentSetup", []string{"Our read queries are slow.", "What does your current database setup look like — replicas, pooling?", "One primary and two read replicas behind PgBouncer: that's our setup."}, ""},
		{"back-currentSetupDash", []string{"Our alerts are noisy.", "How is paging configured today?", "Everything pages the on-call engineer, day and night — that's our setup."}, ""},
		{"back-itInClause", []string{"Which?", plan, "Moving it into CI with a required label — yes, let's do that."}, ""},
		{"back-sounds", []string{"Which?", plan, "Paging only on burn-rate alerts and everything else to Slack — sounds good, let's do that."}, "Paging only on burn-rate alerts and everything else to Slack"},
		{"back-wellSet", []string{"Which?", plan, "Paging only on burn-rate alerts and everything else to Slack — we'll set it up that way."}, "Paging only on burn-rate alerts and everything else to Slack"},
		{"back-thatsWhat", []string{"Which?", plan, "Paging only on burn-rate alerts and everything else to Slack — that's what we'll do."}, "Paging only on burn-rate alerts and everything else to Slack"},
		{"itis-however", []string{"Do we need backups for the staging DB?", "Backups of staging cost about $40 a month on RDS; snapshots are cheaper.", "However expensive it is, we need the backups."}, ""},
		{"itis-conditional", []string{"Which?", logs, "If finance cuts the budget again, Loki it is."}, ""},
		{"itis-nextMonday", []string{"How often should the report refresh?", "Hourly is plenty for a dashboard nobody checks before 9; daily would also do.", "Nobody needs it fresher than hourly, so hourly it is from next Monday."}, "hourly"},
		{"itis-startingNoComma", []string{"How often should the report refresh?", "Hourly is plenty for a dashboard nobody checks before 9; daily would also do.", "Hourly it is starting tomorrow."}, "Hourly"},
		{"itis-iguess", []string{"Which?", logs, "Budget's tight and nobody wants another vendor, so I guess Loki it is."}, "Loki"},
		{"stays-dropsReport", []string{"Our warehouse bill is high.", "Auto-suspend on the BI warehouse is the biggest lever; set it to 60 seconds.", "Auto-suspend drops to 60 seconds by default, so there's nothing to change."}, ""},
		{"stays-goesIntoReport", []string{"Which?", plan, "The spec diff goes into CI, and it's been failing every build since Monday."}, ""},
		{"stays-risesTo", []string{"Which?", "Option B moves the logs to Loki; the bill rises with volume, roughly $400 a month at your ingest.", "The bill rises to $400 a month with B, which is more than I thought."}, ""},
		{"stays-goesAheadIf", []string{"Should we run the migration this week?", "The migration is ready; the only risk is the reporting jobs during the cutover.", "The migration goes ahead if the reporting jobs are paused."}, ""},
		{"stays-comesOut", []string{"Which?", plan, "The nightly embedding job comes out."}, "The nightly embedding job comes out"},
		{"stays-movesToA", []string{"Why does my pod keep changing nodes?", "Kubernetes reschedules the pod when a node is drained; the scheduler picks a node with free capacity.", "So the pod moves to a new node whenever one is drained, got it."}, ""},
		{"leave-outFirst", []string{"Which?", plan, "Most of that's spot on. Leave out the deposit, though — my customers are old and loyal."}, "Leave out the deposit"},
		{"leave-percent", []string{"Which?", plan, "Leave the 25% deposit out."}, "Leave the 25% deposit out"},
		{"leave-that", []string{"Which?", plan, "Leave that out — my customers are old and loyal."}, ""},
		{"reason-everyone", []string{"Which secrets manager?", "Doppler, or 1Password service accounts with op inject. Both work with your CI.", "Go with 1Password service accounts — everyone on the team gets their own vault."}, "Go with 1Password service accounts — everyone on the team gets their own vault"},
		{"reason-i", []string{"Which secrets manager?", "Doppler, or 1Password service accounts with op inject. Both work with your CI.", "Go with Doppler — I'll set it up on Monday."}, "Go with Doppler"},
		{"soits-diagnosis", []string{"Why are the scans failing?", "Most likely the label printer's resolution — the handheld scanner firmware is fine.", "So it's the label printer, not the scanner."}, ""},
		{"soits-fault", []string{"Why are the scans failing?", "Either the handheld scanner's battery or the label printer.", "So it's the scanner's battery."}, ""},
		{"soits-a", []string{"Which?", plan, "Finance replied. So it's a handheld scanner with printed labels."}, "a handheld scanner with printed labels"},
		{"soits-bare", []string{"Which secrets manager?", "Doppler, or 1Password service accounts with op inject. Both work with your CI.", "So it's Doppler."}, "Doppler"},
		{"label-fixColon", []string{"The pool keeps running out.", "The simplest fix: bump the pool size to 40 and add a 30s statement timeout.", "Yes, do that."}, "bump the pool size to 40 and add a 30s statement timeout"},
		{"label-concretely", []string{"He left the company.", "Concretely: remove his key from all three droplets and rotate the API token. The rest can wait.", "Yes, do that."}, "remove his key from all three droplets and rotate the API token"},
		{"label-yesOther", []string{"Card holders?", "Simplest: honour the paper cards until 31 December. Do you want me to draft the sign for the till?", "Yes please."}, ""},
		{"label-tiers", []string{"How should we schedule the sync?", "Simplest: a cron job every hour. Most robust: a Temporal workflow with retries. Which matters more to you?", "Robustness, honestly."}, ""},
		{"eval-weAfter", []string{"Rota?", "Move to a fixed four-week rolling pattern.", "A four-week rolling pattern is exactly what we're after."}, "A four-week rolling pattern"},
		{"eval-butCant", []string{"Rota?", "Move to a fixed four-week rolling pattern; it needs a second supervisor.", "A second supervisor is exactly what we need, but there's no budget for one."}, ""},
		{"eval-thatOne", []string{"Rota?", "Move to a fixed four-week rolling pattern.", "A four-week rolling pattern is exactly what we need, so we'll go with that one."}, "Move to a fixed four-week rolling pattern"},
		{"eval-before", []string{"Rota?", "First, get the shift preferences from everyone; then move to a fixed four-week rolling pattern.", "The shift preferences are exactly what we need before anything else."}, ""},
		{"until-runPast", []string{"Which?", plan, "I'm not touching the scanner until I've run it past Gill."}, ""},
		{"thrash-outThe", []string{"Which?", plan, "The partners and I will thrash out the scanner details on Thursday."}, ""},
		{"board-think", []string{"Which?", plan, "I'll put the handheld scanner to the committee; I think it'll sail through."}, ""},
		{"board-soWeCan", []string{"Which?", plan, "I'll take the three versions to the partners so we can thrash it out."}, ""},
		{"pickup-thing", []string{"Which?", plan, "I'll pick the scanner up on Tuesday."}, ""},
		{"pickup-hedge", []string{"Which?", plan, "I'll pick them up from the supplier on Tuesday."}, ""},
		{"back-wellSetOld", []string{"Which?", plan, "Paging only on burn-rate alerts and everything else to Slack. We'll set it up that way."}, "Paging only on burn-rate alerts and everything else to Slack"},
		{"soits-eating", []string{"Why is the bill so high?", "The BI warehouse never suspends; auto-suspend is off, so it runs all night.", "So it's the BI warehouse eating the budget."}, ""},
		{"stays-comesOutOfOur", []string{"Which?", plan, "The deposit comes out of our margin anyway."}, ""},
		{"until-after", []string{"Which?", plan, "I'm not touching the scanner until after I've talked to Gill."}, ""},
		{"eval-letsDoThen", []string{"Rota?", "Move to a fixed four-week rolling pattern.", "A four-week rolling pattern is exactly what we need, let's do that then."}, "Move to a fixed four-week rolling pattern"},
		{"eval-wantedAvoid", []string{"How do we keep search fresh?", "A nightly embedding job for new items, or embed on write.", "A nightly embedding job is exactly what we wanted to avoid."}, ""},
		{"eval-dontNeed", []string{"Secrets?", "Doppler, or 1Password service accounts with op inject.", "Another vendor like Doppler is exactly what we don't need."}, ""},
		{"itis-dontCare", []string{"Which?", logs, "I don't care how cheap it is, S3 is out."}, "S3 is out"},
		{"itis-howStable", []string{"Which?", logs, "The main question for Loki is how stable it is, not how fast."}, ""},
		{"leave-explanations", []string{"How do I rotate the token?", "Here's a walkthrough of why rotation matters, then the commands: doppler configs tokens create, then revoke the old token.", "Leave the explanations out, just give me the commands."}, ""},
		{"reason-iMean", []string{"Which?", logs, "Go with Loki — I mean the 14 day retention one, not S3."}, "Go with Loki — I mean the 14 day retention one, not S3"},
		{"pickup-themUp", []string{"Which?", plan, "I'll pick them up on Tuesday."}, ""},
		{"pickwith-lokiStack", []string{"Which?", logs, "B, with the Loki stack we already run."}, "Keep them in Loki with a 14 day retention"},
		{"until-vendor", []string{"Kafka or SQS?", "SQS is enough at your volume; Kafka only pays off with replay needs.", "We're not adopting Kafka until the vendor confirms the price."}, ""},
		{"itis-monday", []string{"How often should the report refresh?", "Hourly is plenty for a dashboard nobody checks before 9; daily would also do.", "Hourly it is from Monday."}, "Hourly"},
		{"leave-contract", []string{"Which?", plan, "Leave the deposit out of the contract — nobody pays it anyway."}, "Leave the deposit out of the contract"},
		{"soits-theNoComma", []string{"Which?", plan, "So it's the handheld scanner with printed labels."}, "the handheld scanner with printed labels"},
		{"stays-monthlyOk", []string{"Retrain?", "If it's flat, monthly is fine.", "It isn't flat.", "Then a two-week cadence.", "Marco has the GPUs booked, so monthly stays."}, "monthly stays"},
	})
}

// TestThirteenthBatchForms: decisions inside messages of middle length (the
// thirteenth blind batch), each with a look-alike that must stay out.
func TestThirteenthBatchForms(t *testing.T) {
	const plan = "Page only on SLO burn-rate alerts. Version in the URL, in a header, or evolve additively. A handheld scanner with printed labels. Set auto-suspend on the BI warehouse to 60 seconds. A nightly embedding job for new items. Diff the spec in CI. Payment terms: a 25% deposit. Doppler, or 1Password service accounts with op inject."
	checkReplies(t, "Which?", []replyCase{
		// A clause taken up by what follows it.
		{plan, "Paging only on SLO burn-rate alerts and sending everything else to Slack — yes, let's set it up that way. What thresholds?", "Paging only on SLO burn-rate alerts and sending everything else to Slack"},
		{plan, "Additive changes by default and a new path version only when something has to break — that's our scheme from now on.", "Additive changes by default and a new path version only when something has to break"},
		{plan, "Printed labels with a sequential ID, one handheld scanner: that's our setup.", "Printed labels with a sequential ID, one handheld scanner"},
		{plan, "Maybe paging only on burn-rate alerts — that's the plan?", ""},
		{plan, "Not sure about paging only on burn-rate — let's do that later.", ""},
		// "set it up" points back: nothing to point at, nothing decided.
		{"What is your current alert volume?", "Let's set it up that way.", ""},
		// "X it is" after a clause, with a time, or with a longer name.
		{plan, "Nobody needs it fresher than hourly, so hourly it is from today.", "hourly"},
		{plan, "Doppler's pricing is fine, but we already pay for 1Password, so service accounts with op inject at deploy time it is.", "service accounts with op inject at deploy time"},
		// A thing moved, dropped to a number, going ahead, coming out.
		{plan, "Auto-suspend on the BI warehouse drops to 60 seconds as well.", "Auto-suspend on the BI warehouse drops to 60 seconds as well"},
		{plan, "So the nightly embedding job goes ahead.", "the nightly embedding job goes ahead"},
		{plan, "The spec diff goes into CI, failing the build unless the PR carries a label.", "The spec diff goes into CI, failing the build unless the PR carries a label"},
		{plan, "The deploy still fails on the spec diff, which goes into CI.", ""},
		{plan, "The price drops to $5 after launch, apparently.", ""},
		{plan, "My cat goes ahead of me everywhere.", ""},
		// Leaving a thing out, and a reason after the dash.
		{plan, "Most of that's spot on. Leave the deposit out, though — my customers are old and loyal.", "Leave the deposit out"},
		{plan, "Leave it to me.", ""},
		{plan, "Leave the lights off when you go.", ""},
		// What it comes to, and its look-alikes.
		{plan, "Finance replied. So it's the handheld scanner, with printed labels.", "the handheld scanner, with printed labels"},
		{plan, "So it's fine, then.", ""},
		{plan, "So it's probably the scanner.", ""},
		{plan, "So it's the scanner that keeps failing.", ""},
		{plan, "So it's Doppler vs 1Password now.", ""},
		// A plan taken up after "Simplest:" or "Concretely, for today:".
		{"Simplest: honour the paper cards until 31 December. From launch day, put a sign by the till.", "Yes, do that.", "honour the paper cards until 31 December"},
		{"Possibly not.\n\nConcretely, for today: remove his key from all three droplets and rotate the API token. The rest can wait.", "Yes, do that.", "remove his key from all three droplets and rotate the API token"},
		{"Simplest: it depends on your budget.", "Yes, do that.", ""},
		// A verdict that takes the thing, without "so I'll take that" as its reason.
		{"Move to a fixed four-week rolling pattern.", "A four-week rolling pattern is exactly what we need, so I'll take that.", "A four-week rolling pattern"},
		{"Move to a fixed four-week rolling pattern.", "A holiday is exactly what I need right now.", ""},
		// Put off until someone is heard, a talk to come, an errand.
		{plan, "I'm not touching the scanner until I've heard what Gill thinks.", ""},
		{plan, "I'm not changing anything until the research office replies.", ""},
		{plan, "I'm not adding the deposit, my customers always pay.", "I'm not adding the deposit, my customers always pay"},
		{plan, "I'll take the three versions to the partners and we'll thrash it out there.", ""},
		{plan, "We'll hash passwords with argon2.", "We'll hash passwords with argon2"},
		{plan, "I'll put the handheld scanner to the committee on the 9th; my guess is it sails through.", ""},
		{plan, "I'll pick it up on Tuesday.", ""},
		// A bare pick after a report: "— so X".
		{plan, "He doesn't want another vendor — so 1Password service accounts, no Doppler.", "1Password service accounts, no Doppler"},
		{plan, "The budget is tight this year. So handheld scanner.", "handheld scanner"},
		{plan, "It worked — so far, so good.", ""},
		{plan, "The scanner failed twice — so it works.", ""},
		{plan, "Nobody could agree. So Doppler or 1Password.", ""},
		{plan, "The deploy broke again; so much for the spec diff.", ""},
		{plan, "Thanks — so helpful!", ""},
		{plan, "The vendor pulled out; so tired of this.", ""},
	})
	// "monthly stays" keeps what the assistant said turns before.
	checkTurns(t, []turnsCase{
		{"stays, said before", []string{"Retrain?", "If it's flat, monthly is fine.", "It isn't flat.", "Then a two-week cadence.", "Marco has the GPUs booked, so scratch the fortnightly retrain, monthly stays."}, "monthly stays"},
		{"stays, never said", []string{"Retrain?", "If it's flat, keep it.", "It isn't flat.", "Then a two-week cadence.", "The rash stays."}, ""},
	})
}

// TestPickWithAmend: a pick amended with what goes with it keeps the change;
// a manner ("with a heavy heart") is no change.
func TestPickWithAmend(t *testing.T) {
	const logs = "Two options:\n\nA. Ship everything to S3 with a 90 day retention.\nB. Keep them in Loki with a 14 day retention."
	const rollout = "Options:\n\nA. Ship to everyone on Monday.\nB. Ship to 10% of users first and watch the error rate."
	checkReplies(t, "Which?", []replyCase{
		{logs, "B, but with a 30 day retention.", "Keep them in Loki with a 14 day retention — but with a 30 day retention"},
		{logs, "Option B, with a 30 day retention.", "Keep them in Loki with a 14 day retention — but with a 30 day retention"},
		{logs, "B, with the usual caveats I guess.", "Keep them in Loki with a 14 day retention"},
		{logs, "B, with a heavy heart.", "Keep them in Loki with a 14 day retention"},
		{rollout, "B, with 25% instead.", "Ship to 10% of users first and watch the error rate — but with 25% instead"},
		{rollout, "B.", "Ship to 10% of users first and watch the error rate"},
	})
}

func TestTwelfthBatchForms(t *testing.T) {
	const gw = "ingress-nginx is in maintenance; Traefik or Envoy Gateway are the options. Envoy Gateway supports the Gateway API. Salting the join key is the other option if skew persists. A lottery or a jury for the stall allocation; multiple imputation or complete-case."
	checkReplies(t, "Which?", []replyCase{
		{gw, "Tempting, but we're going with Envoy Gateway — the auth snippets become SecurityPolicy instead of Lua hacks.", "We're going with Envoy Gateway"},
		{gw, "I had written multiple imputation in the draft, but I'm changing that to complete-case.", "I had written multiple imputation in the draft, but I'm changing that to complete-case"},
		{gw, "We're going with Envoy Gateway — the managed chart, not the raw manifests.", "We're going with Envoy Gateway — the managed chart, not the raw manifests"},
		{gw, "The lottery is another matter: Janet thinks a jury is fairer, we'll argue it out next week.", ""},
		{gw, "Envoy Gateway for prod, but we'll use Traefik for staging.", "Envoy Gateway for prod, but we'll use Traefik for staging"},
		{gw, "Traefik has the better dashboard, but we'll go with the other one.", "Traefik has the better dashboard, but we'll go with the other one"},
		{gw, "Good point, but we're going with Envoy Gateway.", "We're going with Envoy Gateway"},
		{gw, "We'll use Envoy Gateway — that's final.", "We'll use Envoy Gateway — that's final"},
		{"The hosting plans are Basic at $20, Pro at $40 and Team at $90.", "We'll take the middle plan — the one that costs $40 a month.", "We'll take the middle plan — the one that costs $40 a month"},
		{"Passwords could be hashed with bcrypt or argon2.", "We'll hash passwords with argon2.", "We'll hash passwords with argon2"},
	})
}
