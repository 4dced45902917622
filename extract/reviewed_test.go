package extract

import (
	"strings"
	"testing"
)

// Replies a review of the reply forms wrote to break them: everyday chat,
// reports, questions, hedges and advice that must not come out as decisions
// (want ""), and wordings in the forms' spirit that must (want "*" for any
// decision, else the decisions joined by "|"). The last message of each
// case is the reply read.
// sqsOrKafka is an answer weighing a queue and a cache, which many cases
// reply to.
const sqsOrKafka = "SQS is managed and cheap at your volume; Kafka is overkill. For the cache, Redis or Memcached both work; Redis gives you persistence."

type overreachCase struct {
	msgs []string // user, assistant, user, …
	want string
}

func checkOverreach(t *testing.T, cases []overreachCase) {
	t.Helper()
	e := New(nil, Options{})
	for _, c := range cases {
		t.Run(c.msgs[len(c.msgs)-1], func(t *testing.T) {
			cv := conv(c.msgs...)
			var got []string
			last := len(cv.Messages) - 1
			for _, d := range e.Decisions(cv) {
				if d.MessageIndex == last {
					got = append(got, d.Decision)
				}
			}
			g := strings.Join(got, "|")
			if g != c.want && !(c.want == "*" && g != "") {
				t.Errorf("decisions %q, want %q", g, c.want)
			}
		})
	}
}

func TestReviewedReplies1(t *testing.T) {
	q := "What should we do?"
	sqs := sqsOrKafka
	yard := "Keep the maple or replace it with an oak? The maple shades the beds; the oak grows slowly."
	opts := "Two options:\n\n**Option A: nightly e2e**\nRun e2e at night.\n\n**Option B: e2e on merge**\nRun on every merge."
	cases := []overreachCase{
		// bare stays without hedge/pronoun checks
		{[]string{q, yard, "maybe the maple stays, not sure yet."}, ""},
		{[]string{q, yard, "the maple probably stays."}, ""},
		{[]string{q, yard, "if the maple stays, we need a new fence."}, ""},
		{[]string{q, yard, "the maple stays, right?"}, ""},
		{[]string{q, yard, "the maple never stays green past september."}, ""},
		{[]string{q, "The rash should fade with the cream within a week.", "the rash stays, even with the cream."}, ""},
		{[]string{q, yard, "my mother-in-law stays with us in june, so the yard has to be done."}, ""},
		// namesOptionOf: empty proposal
		{[]string{q, opts, "how much slower is A?", "With (a) you find breakage a day later; B costs about 20 more CI minutes per merge.", "ok thanks."}, ""},
		{[]string{q, opts, "how much slower is A?", "With (a) you find breakage a day later; B costs about 20 more CI minutes per merge.", "sounds good."}, ""},
		{[]string{q, opts, "how much slower is A?", "Honestly I'd go with **B**, the minutes are cheap.", "ok B it is."}, "*"},
		{[]string{q, opts, "how much slower is A?", "Honestly I'd go with **B**, the minutes are cheap.", "let's do that."}, "*"},
		// headings
		{[]string{q, "**Note:** prices are from 2023.\n\n**Step 1**: measure.\n**Step 2**: cut.", "note, I'll be away next week."}, ""},
		{[]string{q, "**Summary**\nBoth work.\n\n**Details**\nSee below.", "summary, please."}, ""},
		{[]string{q, "**Rule of thumb:** schema in code means Drizzle.\n\n**Caveat:** migrations.", "rule of thumb, got it."}, ""},
		{[]string{q, "**Drizzle**\n- ts\n\n**Kysely**\n- sql", "drizzle — what's the migration story?"}, ""},
		{[]string{q, "**Drizzle**\n- ts\n\n**Kysely**\n- sql", "kysely, my old team used it and hated it."}, ""},
		// contrast
		{[]string{q, "Did it break before or after the update?", "Broke after the update, not before."}, ""},
		{[]string{q, sqs, "me, not my cofounder, will own redis."}, ""},
		{[]string{q, "Is the leak in the worker or the web process?", "Only in the worker process, not the web."}, ""},
		{[]string{q, sqs, "Kafka instead of SQS was my cofounder's idea."}, ""},
		// topicChoice short answers (descriptions)
		{[]string{q, "How often did you publish last time? Weekly, biweekly?", "last time: biweekly."}, ""},
		{[]string{q, "Which OS are you on, Ubuntu or Debian?", "os: ubuntu."}, ""},
		{[]string{q, "What does the error say? Timeout?", "error: timeout."}, ""},
		// acceptedAfter new forms
		{[]string{q, "Did the reset fix the error?", "the reset nope, still broken."}, ""},
		{[]string{q, "Did the factory reset fix the error?", "factory reset nope."}, ""},
		// flatNo then
		{[]string{q, "One idea: ask the landlord. Good luck!", "no luck then, he never answers."}, ""},
		{[]string{q, "One idea: ask the landlord. No worries if not.", "no worries then, I'll figure it out."}, ""},
		{[]string{q, "The issue is the router firmware.", "no wonder then, the router is ancient."}, ""},
		{[]string{q, "The update fixes the issue.", "no update then? ok"}, ""},
		// refusedSuggestion
		{[]string{q, "How did the review go?", "My manager told me to rewrite the tests. No idea why."}, ""},
		{[]string{q, "How did the review go?", "She asked me to rewrite the tests. No, seriously, all of them."}, ""},
		{[]string{q, "How did the review go?", "They wanted us to ship friday. No. Not happening, we told them monday."}, "*"},
		{[]string{q, "Any feedback?", "everyone keeps telling me to try kafka. no."}, "*"},
		{[]string{q, "How was your day?", "the doctor told me to cut sugar. nope, not today lol"}, ""},
		// reUserPresent
		{[]string{q, "How does your week look?", "ok so we buy groceries on sunday and cook for the week."}, ""},
		{[]string{q, "What's the current flow?", "right, we accept cash only at the moment."}, ""},
		{[]string{q, "What's the current flow?", "ok so we hire through an agency right now, which is pricey."}, ""},
		// dash reason
		{[]string{q, "Who covers weekends?", "we'll split the rota — she takes weekends, I take weekdays."}, "*"},
		// decided inline list
		{[]string{q, sqs, "ok. decided: SQS. redis for the cache. no memcached."}, "SQS|redis for the cache|No memcached"},
		{[]string{q, sqs, "ok. decided: SQS. what a week. redis was down again yesterday."}, "SQS"},
		// verdict
		{[]string{q, sqs, "for most teams SQS is a no brainer, but we have kafka already."}, ""},
		{[]string{q, sqs, "i used to think SQS is a no brainer."}, ""},
		// "make it the rule"
		{[]string{q, "Set a rule for on-call swaps.", "ok, i'll make it the policy for the team: swaps need 48h notice."}, "*"},
		{[]string{q, "Set a rule for on-call swaps.", "my old boss, we made it a rule: swaps need 48h notice, it was a disaster."}, ""},
		// reOptionPick new adverbs
		{[]string{q, opts, "A definitely, the minutes add up."}, "*"},
		{[]string{q, opts, "2 of course."}, ""},
		// nope to
		{[]string{q, "Try Ha Long Bay on day 5.", "nope to ha long, too touristy."}, "Decided against: ha long"},
		{[]string{q, "Try Ha Long Bay on day 5.", "nope to it, too touristy."}, ""},
		{[]string{q, "Try Ha Long Bay on day 5.", "big no to the cruise."}, "*"},
		// ruled out anyway
		{[]string{q, "The new iPhone launches in September.", "the new iphone is out anyway."}, ""},
		{[]string{q, "Keycloak or Auth0?", "my partner is out anyway this weekend, so I have time."}, ""},
		{[]string{q, "Which venue?", "the garden venue — the owner is out regardless."}, ""},
		// worryBefore
		{[]string{q, sqs, "if we'll use SQS we need IAM roles."}, ""},
		{[]string{q, sqs, "ok, we'll use SQS, hopefully that holds."}, "*"},
	}
	checkOverreach(t, cases)
}

func TestReviewedReplies2(t *testing.T) {
	q := "What should we do?"
	opts := "Two options:\n\n**Option A: nightly e2e**\nRun e2e at night.\n\n**Option B: e2e on merge**\nRun on every merge."
	prop := "I'd recommend moving the standup to 10am so the Berlin folks can join."
	cases := []overreachCase{
		{[]string{q, "Try Ha Long Bay on day 5.", "no to ha long, too touristy."}, "Decided against: ha long"},
		{[]string{q, "Try Ha Long Bay on day 5.", "no to it, too touristy."}, ""},
		{[]string{q, opts, "B."}, "*"},
		{[]string{q, prop, "Status — my manager approved it. Let's do that."}, "moving the standup to 10am"},
		{[]string{q, prop, "My manager — she approved it. Let's do it."}, "moving the standup to 10am"},
		{[]string{q, "12 partitions keyed by customer_id is what I'd do.", "12 partitions keyed by customer_id, yes — assuming legal signs off."}, ""},
		{[]string{q, "12 partitions keyed by customer_id is what I'd do.", "12 partitions keyed by customer_id, yes — though I'm not sure."}, ""},
		{[]string{q, "12 partitions keyed by customer_id is what I'd do.", "12 partitions keyed by customer_id, yes — but only after the audit."}, ""},
		{[]string{q, "12 partitions keyed by customer_id is what I'd do.", "12 partitions keyed by customer_id, yes — pending the audit."}, ""},
		{[]string{q, "12 partitions keyed by customer_id is what I'd do.", "12 partitions keyed by customer_id, yes —"}, "12 partitions keyed by customer_id"},
		{[]string{q, "12 partitions keyed by customer_id is what I'd do.", "12 partitions keyed by customer_id, nope — too many."}, "Decided against: 12 partitions keyed by customer_id"},
		{[]string{q, "Use the café for the party.", "the café, perfect compromise."}, "the café"},
		{[]string{q, "Ção options: the Palácio Ção and the Quinta.", "Palácio Ção — nope."}, "*"},
		{[]string{q, "**Palácio Ção**\n- 120 guests\n\n**Quinta da Ribafria**\n- 90 guests", "palácio ção, the terrace sold us."}, "*"},
	}
	checkOverreach(t, cases)
}

func TestReviewedReplies3(t *testing.T) {
	q := "What should we do?"
	opts := "Two options:\n\n**Option A: nightly e2e**\nRun e2e at night.\n\n**Option B: e2e on merge**\nRun on every merge."
	cases := []overreachCase{
		{[]string{"The header on my resume — way too big. Make it smaller."}, ""},
		{[]string{"Cover letter: the tone is off. Make it warmer please."}, ""},
		{[]string{q, "**Évora**\n- quiet\n\n**Porto**\n- busy", "Évora, the quiet wins."}, "*"},
		{[]string{q, opts, "unrelated: what do I need for the API?", "Per the docs (a) you need an API key and (b) a paid plan.", "b then."}, ""},
		{[]string{q, "How is the garden?", "The tomatoes — they got blight again. Move on, I guess. Keep it simple."}, ""},
		{[]string{q, "Keep Drizzle or switch?", "The migration — the team hates it. Push it to Q3."}, "*"},
	}
	checkOverreach(t, cases)
}

func TestReviewedReplies4(t *testing.T) {
	q := "What should we do?"
	sqs := sqsOrKafka
	router := "Did you try the 5GHz band? Rebooting the router and moving it off the floor often helps. If the error stays, check the cable."
	wifi := "For the house, run ethernet where you can; otherwise MoCA adapters over the coax work well, or a mesh system like Eero."
	prop := "I'd recommend moving the standup to 10am so the Berlin folks can join."
	options := "Two options:\n\n**Option A: nightly e2e**\nRun e2e at night.\n\n**Option B: e2e on merge**\nRun on every merge.\n\nI'd go with A."
	pros := "Here's the breakdown:\n\n**Pros**\n- fast\n- cheap\n\n**Cons**\n- no support\n- lock-in\n\n**Budget**\n- about 5k"
	camp := "For the campaign: **Budget**: keep it under 5k.\n**Timeline**: 6 weeks.\n**Risks**: volunteers burning out."
	edit := "Here's a draft of the cover letter. The intro paragraph sets up your experience, and the closing asks for an interview."
	trial := "Options: a 7-day trial on yearly, a 14-day trial on monthly, or no trial. Cadence could be weekly or biweekly; the current provider is Mailchimp."
	cases := []overreachCase{
		// ---- should NOT be decisions ----
		{[]string{q, router, "the 5ghz band, tried it yesterday, same drops, so no."}, ""},
		{[]string{q, "Is the router still under warranty?", "the router, bought it 4 years ago, so no."}, ""},
		{[]string{q, router, "the error stays."}, ""},
		{[]string{q, router, "the error stays, even after rebooting twice."}, ""},
		{[]string{q, "Baking soda usually gets rid of the smell in a day.", "the smell stays, no matter what I try."}, ""},
		{[]string{q, wifi, "there's coax in every bedroom, not ethernet."}, ""},
		{[]string{q, "Does it crash on Chrome or on Safari?", "Only on Safari, not Chrome."}, ""},
		{[]string{q, "Does it drop on wifi or on ethernet?", "Happens on wifi, not on ethernet."}, ""},
		{[]string{q, "Is the problem with the router or the modem?", "the modem, not the router, my ISP confirmed."}, "*"}, // ambiguous: diagnosis
		{[]string{q, trial, "current provider: mailchimp."}, ""},
		{[]string{q, "What router model do you have? Netgear, TP-Link?", "router: netgear nighthawk."}, ""},
		{[]string{q, "Could there be a problem with the cable?", "no problem then, thanks!"}, ""},
		{[]string{q, "There's no rush on the migration.", "no rush then, I'll check back monday."}, ""},
		{[]string{q, "You could take a break from the project.", "no break then, deadline is friday lol."}, "*"},
		{[]string{q, "Wait for the new iPhone, it's worth it.", "ok so we start school on monday, so I'm busy."}, ""},
		{[]string{q, "Disk usage grows fast with logs.", "ok so we run out of disk every week, is that normal"}, ""},
		{[]string{q, "The lock is held for the whole transaction.", "ok so we hold the lock for 30s and then it times out."}, ""},
		{[]string{q, "Each login writes an audit row.", "right so we add a row every time someone logs in."}, ""},
		{[]string{q, "You could enable debug logging for the request bodies.", "Nobody on the team asked to log request bodies. No."}, ""},
		{[]string{q, "Did anyone ask for dark mode?", "someone on the team asked to add dark mode once. no idea who."}, ""},
		{[]string{q, "How is the new job?", "my boss wants me to present on friday. nope, not ready at all."}, ""},
		{[]string{q, "How are the kids?", "my wife asked me to pick them up at 5. no."}, "*"},
		{[]string{q, "Set a budget for the gifts.", "Budget: I said no more than 500 but my wife disagrees."}, ""},
		{[]string{q, "Kafka is overkill.", "Kafka: we said no last time, right?"}, ""},
		{[]string{q, "Kafka is overkill.", "Kafka: i said no, but the team overruled me."}, ""},
		{[]string{q, prop, "Quick update — my manager approved it. Let's do that."}, "moving the standup to 10am"},
		{[]string{q, edit, "The intro paragraph — too formal. Make it friendlier."}, ""},
		{[]string{q, edit, "The closing: a bit pushy. Make it shorter."}, ""},
		{[]string{q, "The printer needs a new driver.", "The printer — jammed again this morning. Kill it."}, "*"},
		{[]string{q, "Keep an eye on the long story arcs.", "Long story short — we argued all night. Drop it."}, ""},
		{[]string{q, pros, "cons, I'm not too worried about those."}, ""},
		{[]string{q, camp, "budget, we have maybe 5k max."}, ""},
		{[]string{q, camp, "timeline, 6 weeks feels tight."}, ""},
		{[]string{q, "Decide the analysis plan.", "not decided: log RT or raw. my advisor will weigh in."}, ""},
		{[]string{q, "Decide the analysis plan.", "haven't decided: log RT or raw RT. need to read more."}, ""},
		{[]string{q, "You could try staying on the line.", "staying on hold with the airline for an hour now, ugh."}, ""},
		{[]string{q, "Unity 2022 LTS is stable.", "staying on unity 2022 would be nice but the asset store forces 6."}, ""},
		{[]string{q, "The rust rewrite is risky.", "everyone on hacker news says the rust rewrite is a no brainer."}, ""},
		{[]string{q, "The rust rewrite is risky.", "the rust rewrite is a no brainer for google, maybe not for us."}, ""},
		{[]string{q, "Try the remote standup format.", "Last year, we made it the rule: no phones at standup. It didn't stick."}, ""},
		{[]string{q, "Try the remote standup format.", "hmm, should we make it a rule: no phones at standup"}, ""},
		{[]string{q, sqs, "SQS, yes —"}, "*"},
		{[]string{q, sqs, "Redis for the cache, good idea, but let me check with ops first."}, ""},
		{[]string{q, sqs, "Redis i like, but persistence costs us."}, ""},
		{[]string{q, sqs, "kafka nope, never used it, how does it work?"}, ""},
		{[]string{q, sqs, "honestly nope, I don't get any of this."}, ""},
		{[]string{q, "The new version of the app is out.", "the app — the new version is out anyway."}, ""},
		{[]string{q, "Which mattress?", "the mattress stays, it's from my grandma."}, "*"},
		{[]string{q, "Clear the cache and the error should go away.", "nope to that, already tried it twice."}, ""},
		{[]string{q, "Do you use the mid-campaign update email?", "update: the board met last night. no idea what they decided."}, ""},
		{[]string{q, options, "A obviously works better on paper, but ops hates it."}, ""},
		{[]string{q, options, "(b) of course would be ideal if we had the runners."}, ""},
		{[]string{q, "Use **Drizzle** or **Kysely**?", "Drizzle, really?"}, ""},
		{[]string{q, sqs, "Friday's deploy went fine, so no."}, ""},
		{[]string{q, "Is the cache warm after deploy?", "the cache, I checked the dashboard, it's cold, so no."}, ""},
		{[]string{q, "We're going with Square — check the fees.", "we're going with Square — she hated the fees but the inventory works."}, "*"},

		// ---- SHOULD be decisions ----
		{[]string{q, sqs, "Memcached, not Redis."}, "*"},
		{[]string{q, sqs, "Redis rather than Memcached, we need persistence."}, "*"},
		{[]string{q, sqs, "Kafka is off the table regardless, SQS it is."}, "*"},
		{[]string{q, sqs, "cache — memcached is out."}, "*"},
		{[]string{q, sqs, "kafka: we talked it over with the team, we decided no."}, "Decided against: kafka"},
		{[]string{q, sqs, "kafka: after the outage last year i say no."}, "*"},
		{[]string{q, sqs, "Kafka, nope."}, "Decided against: Kafka"},
		{[]string{q, sqs, "kafka nah, too heavy."}, "Decided against: kafka"},
		{[]string{q, sqs, "nope to kafka."}, "Decided against: kafka"},
		{[]string{q, sqs, "Redis for the cache, fair call."}, "Redis for the cache"},
		{[]string{q, sqs, "Redis for the cache, works for me — with persistence on."}, "*"},
		{[]string{q, sqs, "Redis for the cache, love it."}, "Redis for the cache"},
		{[]string{q, sqs, "kafka, our ops lead hates it, so no."}, "Decided against: kafka"},
		{[]string{q, sqs, "the team lead asked to try Kafka too. No. SQS is enough."}, "*"},
		{[]string{q, sqs, "My CTO keeps telling me to use Kafka, but no."}, "*"},
		{[]string{q, sqs, "ok we make it a rule: every queue is SQS."}, "*"},
		{[]string{q, options, "B obviously."}, "*"},
		{[]string{q, options, "A, of course."}, "*"},
		{[]string{q, trial, "cadence: weekly."}, "*"},
		{[]string{q, trial, "trial: 14-day on monthly."}, "*"},
		{[]string{q, sqs, "The cache — Redis has persistence, Memcached doesn't. Keep it simple: Redis."}, "*"},
		{[]string{q, "Consider the standup format and the on-call rotation.", "The standup — 15 min is plenty. Move it to 10am."}, "*"},
		{[]string{q, "Consider the weekly report.", "The weekly report — nobody reads it. Kill it."}, "*"},
		{[]string{q, "Keep the maple or plant a new oak?", "the maple stays!"}, "*"},
		{[]string{q, "Keep the maple or plant a new oak?", "the maple stays, the oak can wait."}, "*"},
		{[]string{q, sqs, "no kafka then, sqs does what we need."}, "*"},
		{[]string{q, "Unity 2022 LTS or Unity 6?", "staying on 2022 LTS until the release."}, "*"},
		{[]string{q, sqs, "SQS is a no-brainer for us."}, "*"},
		{[]string{q, sqs, "going with SQS — my team knows it already."}, "Going with SQS"},
		{[]string{q, pros + "\n\n**Drizzle**\n- ts\n**Kysely**\n- sql", "kysely — we like raw sql."}, "*"},
		{[]string{q, "**Drizzle**: schema in TS.\n\n**Kysely**: query builder only.", "Kysely; our DBA wants the database as the source of truth."}, "*"},
		{[]string{q, "Pick a venue: the **Quinta** or the **Palácio**.", "Palácio, obviously."}, "*"},
	}
	checkOverreach(t, cases)
}

// TestDecidedList checks "decided:" opening a message: each short sentence
// after it in the paragraph is an item, as after an inline "ok. decided:".
func TestDecidedList(t *testing.T) {
	sqs := sqsOrKafka
	checkOverreach(t, []overreachCase{
		{[]string{"What should we do?", sqs, "decided: SQS. redis for the cache. no memcached."}, "SQS|redis for the cache|No memcached"},
		{[]string{"What should we do?", sqs, "Decided: SQS. the kids are asleep. lol."}, "SQS"},
	})
}

// TestStateTopics checks that a short "topic: answer" reply is a choice
// unless the topic names a state ("os: ubuntu."), word for word: "backlog"
// is no "log", "cost" no "os".
func TestStateTopics(t *testing.T) {
	q := "What should we do?"
	checkOverreach(t, []overreachCase{
		{[]string{q, "Groom the backlog weekly or biweekly.", "backlog: weekly."}, "backlog: weekly"},
		{[]string{q, "Cap the hosting cost at the basic or the pro plan.", "hosting: basic plan."}, "hosting: basic plan"},
		{[]string{q, "Which OS are you on, Ubuntu or Debian?", "os: ubuntu."}, ""},
	})
}

// TestWholeWords checks the word lists that turn a form down against whole
// words: "seven" holds no "even", "whatever" no "hate".
func TestWholeWords(t *testing.T) {
	q := "What should we do?"
	checkOverreach(t, []overreachCase{
		{[]string{q, "Keep the maple or replace it with an oak?", "the maple stays, it is seven years old and healthy."}, "the maple stays"},
		{[]string{q, "Keep the maple or replace it with an oak?", "the maple stays, even with the shade."}, ""},
		{[]string{q, "Keep the maple or replace it with an oak?", "the maple stays, although it shades the patio."}, ""},
		{[]string{q, "**Drizzle**\n- ts\n\n**Kysely**\n- sql", "drizzle, whatever keeps the schema in ts."}, "drizzle"},
		{[]string{q, "**Drizzle**\n- ts\n\n**Kysely**\n- sql", "kysely, my old team hated it."}, ""},
	})
}

// TestNonASCIINames checks the forms that name a thing with letters outside
// ASCII, which the reply's ASCII-lowered copy keeps as written.
func TestNonASCIINames(t *testing.T) {
	q := "Where should we go?"
	cities := "Two options:\n\n**İstanbul**\n- food, history\n\n**Lisboa**\n- coast, trams"
	checkOverreach(t, []overreachCase{
		{[]string{q, cities, "İstanbul, obviously."}, "İstanbul"},
		{[]string{q, "You could close on Mondays, or open later.", "Café — nobody comes before ten. Drop it."}, "Decided against: Café"},
	})
}
