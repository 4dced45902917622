package extract

import (
	"bytes"
	"iter"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/extract/internal/words"
)

// The patterns run on ASCII-lowered text (same byte offsets as the original).
var (
	// reDirect finds a sentence in which the speaker settles something.
	reDirect = re(`^(?:` + strings.Join([]string{
		`we(?:'ll| will| shall|'re going to| are going to|'re gonna| are gonna) (?:use|go with|go ahead with|adopt|switch to|stick with|stay with|move to|migrate to|standardi[sz]e on|pick|choose|opt for|keep|build on|rely on|implement|ship|report)`,
		`we(?:'ll| will) be (?:using|going with|switching to|moving to|migrating to|sticking with|staying with)`,
		`we go (?:ahead )?with`,
		`we go for`,
		`i(?:'ll| will|'m going to| am going to) (?:go with|go for|go ahead with|stick with|stick to|pick|choose|opt for|adopt|switch to)`,
		`let'?s (?:go with|go ahead with|use|stick with|stay with|adopt|switch to|pick|choose|opt for|move to|migrate to|standardi[sz]e on|keep)`,
		`(?:we|i)(?:'re| are|'m| am) (?:going|going ahead|sticking|staying|moving forward) with`,
		`(?:we|i)(?:'re| are|'m| am) sticking to`,
		`(?:we|i)(?:'re| are|'m| am) (?:going|opting) for`,
		`(?:we|i)(?:'ve| have) made up (?:my|our) minds?`,
		`consensus (?:is|was|:)`,
		`(?:we|i)(?:'ve| have)? (?:chose|chosen|picked|opted for|gone with|went with|went for|gone for|went ahead with|gone ahead with|landed on|converged on)`,
		`(?:we|everyone|team) voted (?:[a-z]+ ){0,3}?(?:for|to)`,
		`(?:we|i)(?:'ve| have) ruled out`,
		`(?:i'm|i am|we're|we are) sold on`,
		`count me in for`,
		`(?:we'll|we will|i'll|i will) settle for`,
		`(?:it's|it has|it is) been decided`,
		`(?:we|i) ended up (?:with|using|going with|choosing|picking|on)`,
		`ended up (?:going with|choosing|picking|opting for|settling on)`,
		`decided (?:not to|to|on|that|against|we)`,
		`decided\s*(?:[:,—–]|-\s)\s*[a-z0-9]+`,
		`decision (?:is|was|has been|:)`,
		`settled on`,
		`signed off on`,
		`(?:we|i|everyone|all)(?: have|'ve| had)? agreed`,
		`agreed(?: ` + agreedWhen + `)? (?:to|on|that)`,
		`we agree (?:to|on|that)`,
		`agree on no`,
	}, "|") + `)\b`)
	// reUserWill and reUserLets are a user's commitment with any verb ("we'll
	// stratify by platform", "let's test a restore monthly"): from the person
	// who owns the work, these settle it. The verb is checked against
	// notCommitting.
	reUserWill = re(`^we(?:'ll| will| are going to|'re going to| shall)(?: also| then| just| now| first| instead| still| definitely| initially| only)?(?: go ahead and)? ([a-z][a-z-]+)\b`)
	reUserLets = re(`^let'?s(?: also| then| just| now| first| instead| still| only)?(?: go ahead and)? ([a-z][a-z-]+)\b`)
	// reUserCommit is what only the owner of the work settles with: a change
	// under way ("we're switching to X", "we're dropping Y"), a decision
	// against ("we won't adopt Feast"), the plan stated ("the plan is to …"),
	// a rule from now on, or a verdict on a choice ("sqlc is the way to go").
	// From the assistant these are narration or advice.
	reUserCommit = re(`^(?:` + strings.Join([]string{
		`(?:we|i)(?:'re| are|'m| am) switching:\s*[a-z0-9][a-z0-9-]*`,
		`(?:we|i)(?:'re| are|'m| am) (?:switching to|moving to|migrating to|moving over to|dropping|skipping|ditching|adopting|standardi[sz]ing on|replacing|retiring|removing|deprecating|sunsetting|keeping|sticking with|staying (?:with|on))`,
		`(?:we|i)(?:'re| are|'m| am) (?:switching|migrating|porting) (?:[a-z0-9./-]+ ){1,5}?(?:over |back )?to`,
		`(?:we|i)(?:'re| are|'m| am) moving (?:the |our |my )?(?:[a-z0-9./-]+ ){1,5}?(?:over|across)\b`,
		`let'?s not (?:use|adopt|build|ship|go with|move to|migrate to|switch to|support|add|keep|pursue|implement|buy|introduce|run|do|bother)`,
		`(?:we|i)(?:'re| are|'m| am) locking in`,
		`(?:we|i)(?:'re| are|'m| am) adding`,
		`(?:we|i)(?:'re| are|'m| am) (?:moving|raising|lowering|cutting|setting) (?:the |our |my |both |all )?(?:[a-z0-9./-]+ ){1,4}?(?:to|from) (?:[$£€0-9]|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|fifty|half|weekly|fortnightly|monthly|quarterly|daily|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)`,
		`(?:we|i)(?:'re| are|'m| am) (?:killing|committing to)`,
	}, "|") + `)\b`)
	// reUserRule, reUserPlan and reUserVerdict are the rest of the user's
	// commitments, each tried only when the sentence holds its key words.
	// reYesImperative is an instruction after a yes ("Yes, put 15% aside").
	reYesImperative = re(`^(?:put|set|make|add|cap|bump|raise|lower|skip|remove|split|merge|rename|pin|enable|disable|turn (?:on|off)|book|buy|order|schedule|rewrite|revert|replace|swap|upgrade)\b`)
	// reUserNotDoing is a decision against in the progressive: "we're not
	// chasing those", "I'm not adding a calibration step".
	reUserNotDoing = re(`^(?:we|i)(?:'re| are|'m| am) not ([a-z]+ing)\b`)
	// reNotDoingStart is reUserNotDoing without its subject: "not doing
	// vector."
	reNotDoingStart = re(`^not ([a-z]+ing)\b`)
	// reRuledOut is a thing ruled out in so many words (group 1), perhaps
	// with what ruled it out after it (group 2: "out on cost alone").
	reRuledOut = re(`^(?:so |and |then |ok |okay )*((?:the )?[a-z0-9][a-z0-9 ./+#:_-]{0,48}?)(?:(?: (?:is|are)|'s) (?:out|off the table|off the list|out of scope|a no-go|not an option|ruled out|off for now|a hard no|a no|a non-starter)| ruled out| (?:is|are)(?:n't| not) (?:happening|an option))(?: then| too| now| as well| for now| anyway| regardless| this (?:quarter|year|month|sprint|release|round|season|term|time))?(?: (?:for|as) (?:us|me|now|(?:a|an|the|this|our) [a-z0-9 -]{1,40}?))?(?: anyway| too| then)?(?:\s*(?:[.!,;:—–]|$)|( (?:on (?:cost|price|budget|licen[cs]e)))\b)`)
	// reUserWont is a decision against with any verb ("we won't migrate
	// this quarter", "we're not going to bother with triggers"), the verb
	// checked against notCommitting and notDeciding.
	// reUserShould is the user's "we should go with X" in reply to the
	// assistant: from the owner of the work, a choice, unless a "but"
	// follows.
	reUserShould = re(`^we should(?: just| definitely| really)? (?:go with|use|pick|choose|switch to|stick with|stay with|adopt|move to|migrate to)\b`)
	// reUserPresent is a choice in the present tense after an interjection
	// that settles: "OK, so we're using Vault", "Alright, we keep the
	// schema".
	reUserPresent = re(`^we(?:(?:'re| are) (?:doing|using|going with)| (?:keep|use|go with|stick with|stay with|switch to|move to|change to|drop|ship|leave|take|do|run (?:the|a|an|it|both|all|them|one|two|our)))\b`)
	reUserWont    = re(`^(?:we|i)(?: won't| will not|(?: are|'re| am|'m) not going to| aren't going to)(?: be)? ([a-z][a-z-]+)\b`)
	// reUserI is the user's own choice in the first person ("I'll use
	// pgx", "I'll do that", "I'll book the 5.2"); other verbs after "I'll"
	// are mostly tasks ("I'll open a ticket").
	reUserI = re(`^i(?:'ll| will|'m going to| am going to|'d rather|'d rather just) (?:go ahead and )?(use|keep|move to|move (?:us |it |everything )?over to|migrate to|stay with|stay on|do|go with|go for|stick with|switch to|book|buy|order|hire|rent|sell|cancel|sign)\b`)
	// reUserIOver is "I'll" and a verb (group 1), a choice when the
	// sentence says what it was chosen over (see trigger).
	reUserIOver = re(`^i(?:'ll| will|'m going to| am going to) (?:just )?([a-z]+)\b`)
	// reSetThe is a date, budget or the like that someone has fixed: "We've
	// fixed the dates for our offsite as 16–17 October", "Leadership has set
	// the budget at $30,000".
	reSetThe = re(`^(?:(?:so|ok|okay|well|update)[,:]? )?(?:we|i|they|` + deciders + `)(?:'ve| have| has)? (?:now |already |finally )?(?:set|fixed|locked in|locked|confirmed|finali[sz]ed) (?:the|our) (?:[a-z]+ ){0,2}?(?:date|dates|budget|deadline|venue|scope|timeline|price|prices|headcount)\b`)
	// reThatSettled closes a clause as settled: "£1,000 of it is going on a
	// holiday; that's settled and not up for debate".
	reThatSettled = re(`^[^;:?]{8,160}?(?:;|,|—|–| -)\s*(?:and )?(?:that's|that is|that part is|that part's) (?:settled|decided|final|non-negotiable)\b`)
	// reDoneState is a thing reported as booked or bought, which settles
	// it: "The barn is booked: I paid the deposit", "The 50-pint unit is
	// ordered". "Booked solid" and "booked up" say something else.
	reDoneState = re(`^(?:(?:so|and|ok|okay|right|update)[,:]?\s+)?((?:the |our |my |both |all )?[a-z0-9][a-z0-9 ./+-]{0,40}?)(?: (?:is|are|has been|have been)|'s) (?:now |already |all |finally )?(?:booked|ordered|reserved|bought|purchased|paid for)(?:\s*(?:[.!,;:—–]|$)| (?:for|on|from|through|with|at|in|and)\b)`)
	// reGroupFirst opens a sentence with a group that decides: "The
	// committee met last night and went with Ticket Tailor".
	reGroupFirst = re(`^` + deciders + `\b`)
	// reUserDone is a change the user reports having made: "I've switched
	// the replica to logical replication", "Went with Loki".
	reUserDone = re(`^(?:(?:i|we)(?:'ve| have) (?:bought|ordered|booked|hired|signed up for)\b|(?:i|we)(?:'ve| have)? (?:(?:gone|went) ahead and )?(?:switched|moved|migrated|ported)(?: [a-z0-9./_-]+){0,5}? (?:over |back )?to|(?:went with|chose|picked|opted for|switched to|moved to|migrated to|settled on|stuck with)\b)`)
	// reUserNo is a thing ruled out for a time: "No Kafka for now." "No X
	// yet" reports a state ("no word from legal yet"), not a choice.
	reUserNo = re(`^(?:(?:ok|okay|so|then|fine|right|alright)[,.!]*\s+)?no ([a-z0-9][a-z0-9 ./+#-]{0,40}?)(?: (?:for now|for us|this (?:quarter|sprint|release|year|time|round)|until\b)|, then\s*(?:[.!:;,—–]|$))`)
	// reThenChoice is a reply naming what it takes, then "then": "insert_overwrite
	// with a four-day window, then." Group 1 is what is taken.
	reThenChoice  = re(`^(?:(?:ok|okay|so|right|alright|fine)[,.!]*\s+)?([a-z0-9][a-z0-9 ./+#_%$£€-]{2,80}?), then\s*[.!]*$`)
	reUserRule    = re(`^(?:(?:ok|okay|so|and|also|then|agreed|good|great)[,.!]*\s+)?(?:going forward|from now on|from here on)\b[,:]?`)
	reUserPlan    = re(`^(?:(?:the|our) plan is (?:to|that|[0-9]+)|(?:the|our|my) call is (?:to|that)|(?:our|my) (?:choice|pick) is|the answer is)\b`)
	reUserWillBe  = re(`^(?:the|our|my) (?:[a-z0-9][a-z0-9./-]* ){0,4}?(?:model|date|default|name|format|approach|strategy|deadline|target|budget|limit|region|provider|stack|backend|database|language|framework|library|metric|threshold|timeout|version|cutoff|venue|price|policy|owner|schedule|launch|layout|structure|tool|vendor|host|hosting) (?:is going to be|will be|is gonna be)\b`)
	reUserVerdict = re(`^(?:is|are) (?:(?:the way to go|the way forward|our pick|the winner|what we'll use|what we're going with|a no[ -]brainer)\b|the one(?: for us)?\s*(?:[.!,;]|$))`)
	// reImperative is a user's instruction that picks ("Use pgx directly",
	// "Switch to Vitest", "Keep the old endpoint for a month"): in a reply to
	// the assistant it settles what was being weighed. reNotImperative are
	// idioms that open the same way.
	reImperative = re(`^(?:and |also |so |actually,? )?(?:(?:ok|okay|yes|yeah|no|nope|fine|alright|right|then|great|good|perfect|sounds good|makes sense|agreed|got it|in that case|done|approved|sure|yes please)[,.!:;—–-]*\s+)?(use|go with|go ahead with|go for|pick|choose|switch to|stick with|stick to|stay with|keep|drop|scrap|ditch|adopt|skip|move to|migrate to|standardi[sz]e on|rip|leave (?:the|our|your|those|these|any|all) [a-z0-9 ./%_-]{1,30}? out|leave out (?:the|our|your|those|these|any|all) [a-z0-9./%_-]+)\b`)
	// rePickWith is a pick amended with what goes with it: "B, but with a
	// 30 day retention", "option 2, with two slots".
	rePickWith      = re(`(?:,\s*(?:but\s+)?|\s+but\s+|\s+[—–]\s+(?:but\s+)?)(with (?:a |an |the |\d|only |just |no |two |three |four |five |one )[^,;]{3,})$`)
	reMidImperative = re(`, (?:(?:yes|sure|ok|okay|fine|yep|yeah)[,.!]*\s+)*(?:but\s+|(?:yes|sure|ok|okay|fine|yep|yeah)[,.!]*\s+)((?:go ahead with|go with|use|keep|drop|scrap|ditch|skip|stick with|switch to|pick|choose|start with)\b)`)
	reNotImperative = re(`^(?:use of\b|leave (?:out )?(?:the |your )?(?:explanations?|details|preamble|intro|introduction|commentary|theory|background|small talk|jargon|fluff|pleasantries|comments)\b|skip (?:to|ahead|over|the (?:intro|introduction|explanation|details|pleasantries|preamble|small talk|theory|background|basics|boilerplate|lecture))\b|drop (?:by|off)\b|keep (?:in mind|going|an eye|me|us|you|them|it (?:short|simple|brief|a bit|a little|light|casual|formal|friendly|fun|vague|mysterious|professional|tight|concise|neutral|upbeat|positive|low-key|lowkey|quiet|secret)|(?:that|this|it|those|these) in mind)|pick up|use your|use whatever|choose whatever|drop me|drop it\b)`)
	// reAnyAnaphor is a word that points elsewhere for its meaning.
	reAnyAnaphor = re(`\b(?:it|that|this|these|those|them)\b`)
	// reItIs is a choice named on its own: "Meilisearch it is."
	reItIs = re(`^(?:(?:ok|okay|fine|alright|right|then|so|great|good|and)[,.!]*\s+)?(?:i guess |i suppose )?([a-z0-9$£€][a-z0-9 .+#/%_-]{0,60}?) it is(?:,? then|,? for now|,? (?:from|starting) (?:today|tomorrow|now on|now|here on|here|(?:next )?(?:week|month|year|quarter|term|season|(?:mon|tues|wednes|thurs|fri|satur|sun)day))|,? going forward)?\s*(?:[.!]*$|[,;:—–])`)
	// rePlanLabel opens a sentence that announces the decision after it:
	// "that's the plan: …".
	// reInlineLabel announces the decision after it, perhaps after a clause:
	// "…, but final answer: X", "I've made the call: X", "Approved for the
	// first two: X", "That's a yes to the storage proposal: X", "Yes, that
	// plan works for points 1 to 3: X".
	reInlineLabel = re(`^(?:.{0,80}?(?:, |; |^)(?:but |so |and |ok |okay )?)?(?:final answer|i've made the call|i have made the call|(?:i|we)(?:'ll)? make it (?:the |a )?(?:rule|policy)(?: (?:on|for|in) [a-z0-9 ]{1,30})?|approved for [a-z0-9 ]{1,30}|that's a yes to [a-z0-9 ]{1,40}|(?:yes, )?(?:that|the) plan works(?: for [a-z0-9 ]{1,30})?)\s*:\s*`)
	// reChangeOfMind announces a new decision that replaces one.
	reChangeOfMind = re(`^(?:(?:ok|okay|fine|so|alright|right|actually|hm+)[,.!]*\s+)*(?:change of plan|changed my mind|new plan|scratch that|(?:[a-z0-9 ]{1,40} )?(?:pretty much |basically )?settles it)\s*(?:[:,—–]|-\s)\s*`)
	rePlanLabel    = re(`^(?:(?:ok|okay|great|good|so|alright|right|perfect|then)[,.!]*\s+)?(?:(?:that's|that is|here's|this is|it's|it is) (?:the plan|settled|decided|the decision|what we'll do|what i'll do|what i'm going to do|what we're going to do|our plan)|that settles (?:it|the (?:[a-z]+ )?(?:question|matter|debate)))(?: then| now)?\s*(?:[:,—–]|-\s)\s*`)
	// reStartGo is a bare "going with X" / "go with X" opening a sentence.
	reStartGo = re(`^(?:(?:so|ok|okay|then|alright|fine|yes|right|sounds good|great|perfect|done)[,.!]* )?(?:going|go) with\b`)
	// reLabel is a "Decision: …" label opening a line.
	// A short heading may stand before it on the line ("Hotfixes — Outcome:
	// …"), as in meeting notes.
	reLabel = re(`^(?:[a-z0-9][a-z0-9 /&+-]{0,40}\s[—–-]\s+)?[*_]*(?:the |our |final |my )*(?:decision|decided|resolution|agreed|conclusion|outcome|verdict|final call|final answer|final choice|consensus|resolved|settled|chosen|selected|picked|winner|approved|locked in|decisions? made|(?:my|our) (?:call|choice|pick))[*_]*\s*(?:[:—–]|-\s)[*_\s]*`)
	// reProposal finds the assistant recommending something.
	reProposal = re(`^(?:` + strings.Join([]string{
		`i(?:'d| would)? (?:strongly |probably |personally |still |also )?(?:recommend|suggest|propose|advise)`,
		`my (?:recommendation|suggestion|advice|pick|vote|preference)(?: here| would be| is|:)`,
		`recommendation:`,
		`i(?:'d| would) (?:go with|go for|use|pick|choose|opt for|stick with|lean towards?|start with)`,
		`you should (?:use|go with|pick|choose|switch to|stick with|adopt)`,
		`the (?:best|right|safest|simplest|better|cleanest|easiest) (?:option|choice|approach|fit|bet|fix|solution|move|path|way forward)(?: here| for you| for this| for now)? (?:is|would be)`,
		`let'?s (?:go with|use)`,
	}, "|") + `)\b`)
	// reProposalLead is the glue between "I suggest" and what is suggested.
	reProposalLead = re(`^[\s:,]*(?:that\s+)?(?:(?:we|you)\s+(?:use\s+|go with\s+|switch to\s+|adopt\s+)?|to\s+use\s+|using\s+|to\s+)?`)
	// reQuestionStart opens a question even without its '?'.
	reQuestionStart = re(`^(?:should|shall|do|does|did|can|could|would|will|are|is|was|were|have|has|what|which|how|why|where|who)\b`)
	// reHypothetical anywhere before the trigger makes the sentence
	// conditional or uncertain.
	reHypothetical = re(`\b(?:if|whether|suppose|supposing|assuming|imagine|what if|in case|unless|wonder|wondering|not sure|unsure|hypothetically|until)\b`)
	// reTentative and reNegation in the trigger's own clause.
	reTentative = re(`\b(?:would|could|might|may|maybe|perhaps|possibly|should)\b`)
	reNegation  = re(`\bnot\b|n't\b|\bnever\b|\bno longer\b|\bnobody\b|\bhardly\b`)
	// reWalkthrough opens an explanation rather than a choice ("Now we'll use
	// the helper to …").
	reWalkthrough = re(`^(?:first|next|then|now|here|below|above|in this|to do this|for this|for example|in the example|step \d|after that|finally)\b`)
	// reLead is an interjection before the decision proper.
	reLead = re(`^(?:(?:fine by me|fine with me|works for me|ok|okay|so|alright|all right|right|great|perfect|fine|good|yes|yeah|yep|cool|then|thanks|thank you|sounds good|agreed|approved|also|and|but|in that case|that settles it|done|alright then|ok then|basically|in short|in other words|to sum up)\b\s*[,.!:;—–-]*\s*)+`)
	// reReasonIn starts a reason inside the decision's sentence.
	// It is tried at the words of reasonAnchors; what precedes it (", ",
	// " — ", " (") is cut from the decision.
	reReasonIn = re(`^(?:because of|because|since|so that|given that|as (?:it|they|this|that|we)|due to|so (?:that|the|we|our|it|they|there|nothing|each|every|any|all|no|users|clients|callers))\b\s*`)
	// reReasonSo is a bare "so" that gives a reason only after a comma.
	reReasonSo = re(`^so\b\s*`)
	// reReasonNext is a following sentence that gives the reason.
	reReasonNext = re(`^[*_]*(?:` + strings.Join([]string{
		`because|since|the (?:main )?reason|reasons?:|rationale:|why:|that way|this way`,
		`(?:this|it|that) (?:keeps|avoids|gives|lets|means|makes|ensures|handles|prevents|reduces|removes|saves|scales|supports|works|matches|fits|costs|needs|requires|guarantees|allows)`,
		`(?:this|it|that)(?:'s| is| was) (?:faster|simpler|cheaper|safer|more|less|better|easier|well|the (?:only|simplest|fastest|safest|cheapest)|already|battle|proven|stable)`,
	}, "|") + `)\b[*_:]*\s*`)
	// reAcceptStrong opens a user reply that accepts a proposal.
	reAcceptStrong = re(`^(?:(?:ok|okay|yes|yeah|yep|great|perfect|alright|cool|nice|fine)[,.!]*\s+)?(?:sounds (?:good|great|fine|perfect|right|reasonable)|that sounds (?:good|great|fine|right|reasonable)|let'?s do (?:it|that|this)|do (?:it|that|this)|go (?:ahead|for it)|agreed|i agree|agree|makes sense|that makes sense|that works|(?:that|your) (?:order|plan|layout|setup|approach|split|schedule|structure|sequence|template|wording) (?:works|is fine|looks (?:good|right|fine))|works for me|lgtm|looks good|ship it|deal|approved|let'?s go with (?:it|that|this|your|the)|go with (?:it|that|this|your)|please (?:do|go ahead|proceed)|proceed|\+1|let'?s (?:go|proceed)|sold|i'm convinced|(?:(?:we'll |let's )?do it )?your way|(?:i'll|we'll) take (?:your|the|that) (?:recommendation|suggestion|advice)|(?:good|great) (?:idea|call)|yes please|please do)\b`)
	// reAcceptBut is a yes with an amendment: "Yes, but keep the cron as a
	// fallback".
	reAcceptBut = re(`^(?:ok|okay|yes|yeah|yep|sure|fine|sounds good|agreed|alright)[,.!]*\s*(?:—|–|-)?\s*but\s+`)
	// reOffer is the assistant offering to make a change ("Want me to switch
	// the cache to Redis?"): the user's yes decides it. Group 1 is the verb.
	reOffer = re(`^(?:(?:so|ok|okay)[,]?\s+)?(?:(?:do you )?want me to|would you like me to|should i|shall i|shall we|should we|do you want (?:me|us) to|want us to)\s+(?:go ahead and\s+)?(switch|replace|migrate|move|use|add|remove|drop|adopt|change|go with|pin|vendor|upgrade|downgrade|split|convert|rewrite|enable|disable|keep|standardi[sz]e|deprecate|retire|introduce|stick with|set)\b`)
	// reAcceptWeak opens a reply that accepts only when nothing contradicts
	// it.
	reAcceptWeak = re(`^(?:ok|okay|yes|yep|yeah|sure|fine|alright|perfect|great|cool|nice|right)\b`)
	reContrast   = re(`\b(?:but|however|instead|rather|actually|wait|hmm|what about|why|not|no)\b|n't\b`)
	// reAnaphor is an object that points back at the assistant's proposal.
	// It may be followed by a reason: "We'll keep that, because …".
	reAnaphor = re(`^\s*(?:(?:it|this|that) up(?: (?:that|this) way| like that)?|(?:it|this|that) (?:that|this) way|(?:that|this) way|it|that|this|that one|this one|(?:your|the|that|this) (?:suggestion|recommendation|proposal|plan|approach|option)|the recommended (?:one|approach|option)|what you (?:suggested|recommended|proposed))\s*(?:then|for now|as well|too|in|yesterday|today|this morning|last week|for (?:the|our|my) [a-z0-9-]+(?: [a-z0-9-]+)?)?\s*(?:[.!,;:—–-]|$|(?:because|since|so|as)\b)`)
	// reEvalChoice is a verdict on a thing named (group 1) in a reply.
	reEvalChoice = re(`^(?:i think |i guess |honestly,? )?(.{1,60}?) (?:(?:makes (?:the most |total |perfect |a lot of )?sense|is (?:the|our) (?:right|best|better|obvious) (?:call|choice|fit|move|option|pick)|sounds like the (?:right|best|better) (?:call|choice|fit|option|pick)|seems like the (?:right|best|better) (?:call|choice|fit|option|pick)|sounds (?:good|great|right|fine)|is enough|is plenty|is fine|gets the nod|wins|is (?:exactly |just )?what (?:we|i)(?: need| needed| want| wanted| were after| was after|'re after|'m after| am after)(?: here| now| right now)?)\b|won(?: out| for us)?\s*(?:[.!,;—–]|$))`)
	// reSumsUp is a yes that opens a summary of what was agreed.
	reSumsUp = re(`^(?:ok|okay|yes|yeah|yep|right|alright)?[,.!]?\s*(?:so\s+)?(?:basically|in short|in other words|to sum up)\b`)
	// reConfirmTag is a question that only checks what was just said
	// ("that's the sliding scale idea, right?").
	reConfirmTag = re(`^(?:so )?(?:that's|that is|this is|i mean|which is)\b.{0,60}\b(?:right|correct|yes|no|isn't it|is it)\s*\?+\s*$`)
	// reOptionName is a thing named only by its label among options.
	reOptionName = re(`^(?:(?:the )?(?:option|approach|alternative|plan) [a-z0-9]|\(?[a-h]\)?|#?[0-9])$`)
	// reAnaphorHow is an anaphoric object followed by how it is done ("it
	// with mice", "that using the replica"): after a yes that took the
	// proposal, the sentence says nothing the proposal did not.
	reAnaphorHow = re(`^\s*(?:it|that|this)(?: one)? (?:with|using|via|through|in|on|by)\b`)
	// reAnaphorBut is an anaphoric object amended in the same breath: "that
	// but with two slots", "it, except on Fridays".
	reAnaphorBut = re(`^\s*(?:it|that|this)(?: one)?,? ((?:but|except|only|without|minus|plus)\b)`)
	// reOption is a labelled option of a proposal ("Option B: …") and
	// reOptionRef a decision that names one ("option B").
	reOption    = re(`^(?:[*_]*(?:option|approach|alternative) ([a-z0-9])\b[*_]*\s*(?:[:—–.)]|-\s)|\*\*([a-h])[.)](?:\*\*)?\s|\(([a-h])\)\s|([a-h])\)\s|\*\*\(([a-h])\)(?:\*\*)?\s)[*_\s]*`)
	reOptionRef = re(`^\s*(?:the )?option ([a-z0-9])\b`)
	// reOptionPick is a reply that is nothing but a pick among numbered or
	// labelled options: "Option 2.", "#2 please", "The second one.", "2".
	reOptionPick = re(`^\s*(?:(?:let'?s (?:go with|do|take)|go with|i'll take|we'll take|(?:also )?do|(?:so,? )?it'?s|(?:we're |we'll |we )?go(?:ing)? (?:ahead )?with|(?:we're |we'll )?go(?:ing)? for)\s+)?(?:(?:the )?option ([a-z0-9])|#?([0-9])|(?:the |your )?(first|second|third|fourth|1st|2nd|3rd|4th)(?: one| option| approach| choice| suggestion| idea| proposal)?|number ([0-9])|\*{0,2}\(?([a-h])\)?\*{0,2})\s*(?:[-—–:]\s*)?(?:it is|is in|then|please|for now|for sure|obviously|of course|definitely|clearly|yes|is fine|is good|works|sounds good)?\s*(?:[.!]*\s*$|,)`)
	// reProposalLabel opens an assistant's plan or proposal, which the
	// user's yes turns into a decision.
	reProposalLabel = re(`^[*_]*(?:(?:so|ok|okay|but|and)[,.]?\s+)?(?:(?:here's|here is|this is|that's|that is) )?(?:the |my |our |a |proposed |suggested )?(?:plan|proposal|suggestion|recommendation|recommended plan|proposed plan|what i(?:'d| would) (?:do|recommend|suggest)|(?:simplest|easiest)(?: fix| option| route| way| thing| approach)?|concretely(?:, for (?:today|now|this week))?)[*_]*\s*(?:[:—–]|-\s)[*_\s]*`)
	// reCompanion is a statement of how something will be ("Audit logs stay
	// in Elasticsearch for now", "The old index can be dropped afterwards"):
	// next to a decision in the same message, it is part of what is settled.
	reCompanion  = re(`^(?:the |our |all |every |each |both )?(?:[a-z0-9][a-z0-9/+-]*[ ]){0,5}?[a-z0-9][a-z0-9/+-]* (?:stays?|remains?|will (?:stay|remain|be|become|run|move|go|keep|use|get)|(?:can|will) be (?:dropped|removed|deleted|kept|moved|retired|replaced|archived|disabled|enabled|turned off)|(?:is|are|gets|get) (?:dropped|removed|retired|deprecated|disabled))\b`)
	reEmptyLabel = re(`^(?:tbd|tba|tbc|pending|none|nothing|n/a|na|not yet|undecided|unclear|unknown|\?+|-+|open)\b`)
)

// re compiles a pattern in which "'" stands for either apostrophe.
func re(p string) *lazyRE {
	return &lazyRE{pattern: strings.ReplaceAll(p, "'", "['’]")}
}

// lazyRE is a pattern compiled when first used: a process that only
// searches never extracts, and compiling them all at start cost every
// command 2.5 ms.
type lazyRE struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
	// pf skips the matcher where an anchored pattern cannot match: most
	// sentences do not open with any of its first words.
	pf *prefilter
}

func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() {
		l.re = regexp.MustCompile(l.pattern)
		l.pf = newPrefilter(l.pattern)
	})
	return l.re
}

func (l *lazyRE) Match(b []byte) bool {
	re := l.get()
	return l.pf.mayMatch(b) && re.Match(b)
}

func (l *lazyRE) MatchString(s string) bool { return l.get().MatchString(s) }

func (l *lazyRE) FindIndex(b []byte) []int {
	re := l.get()
	if !l.pf.mayMatch(b) {
		return nil
	}
	return re.FindIndex(b)
}

func (l *lazyRE) FindSubmatchIndex(b []byte) []int {
	re := l.get()
	if !l.pf.mayMatch(b) {
		return nil
	}
	return re.FindSubmatchIndex(b)
}

// The direct and proposal patterns are anchored: they are tried only where a
// word that can start them begins, which spares most of the text the regular
// expressions. A sentence's words are looked up in all their sets at once
// (anchorToks).
const (
	directAnchorList = `we we'll we're we've we’ll we’re we’ve i'll i'm i've i’ll i’m i’ve i
		let's lets let’s decided decided: decision settled agreed agree everyone all consensus team ended signed
		count it's it’s`
	userAnchorList     = `we we'll we’ll we're we’re let's lets let’s`
	commitAnchorList   = `we we're we’re i i'm i’m i'll i’ll i'd i’d let's lets let’s`
	planAnchorList     = `the our my`
	verdictAnchorList  = `is are`
	proposalAnchorList = `i i'd i’d my recommendation recommendation: you the let's lets let’s`
	doneAnchorList     = `i we i've i’ve we've we’ve ` + doneVerbList
)

// The anchor sets a sentence is tokenised against once (see anchorToks),
// by bit.
const (
	anchorDirect = 1 << iota
	anchorUser
	anchorCommit
	anchorPlan
	anchorVerdict
	anchorProposal
	anchorDone
)

// anchorUnion holds the words of every anchor set; anchorBits[i] says
// which sets its i-th word is in.
var anchorUnion, anchorBits = func() (*words.Set, []uint8) {
	sets := []struct {
		bit  uint8
		list string
	}{
		{anchorDirect, directAnchorList}, {anchorUser, userAnchorList}, {anchorCommit, commitAnchorList},
		{anchorPlan, planAnchorList}, {anchorVerdict, verdictAnchorList}, {anchorProposal, proposalAnchorList},
		{anchorDone, doneAnchorList},
	}
	var all []string
	for _, s := range sets {
		all = append(all, strings.Fields(s.list)...)
	}
	u := words.NewSetOf(all)
	bits := make([]uint8, u.Len())
	for _, s := range sets {
		for _, w := range strings.Fields(s.list) {
			bits[u.Index([]byte(w))] |= s.bit
		}
	}
	return u, bits
}()

// anchorTok is a word of a sentence in one or more anchor sets.
type anchorTok struct {
	i, j int32
	bits uint8
}

// anchorToks appends the words of sl that are in an anchor set: the words
// findAt would stop at, found once for all the sentence's patterns.
func anchorToks(sl []byte, dst []anchorTok) []anchorTok {
	for i, j := nextWord(sl, 0); i < j; i, j = nextWord(sl, j) {
		if k := anchorUnion.Index(sl[i:j]); k >= 0 {
			dst = append(dst, anchorTok{int32(i), int32(j), anchorBits[k]})
		}
	}
	return dst
}

// nextWord returns the bounds of the first word of sl at or after from, as
// anchors are split; i == j when there is none.
func nextWord(sl []byte, from int) (i, j int) {
	i = from
	for i < len(sl) && !isAnchorByte(sl[i]) {
		i++
	}
	j = i
	for j < len(sl) && isAnchorByte(sl[j]) {
		j++
	}
	return i, j
}

// matchAt runs the anchored pattern r at sl[i:]. No trigger is longer than
// maxTrigger: a short window keeps the matcher's work independent of the
// sentence's length.
func matchAt(r *lazyRE, sl []byte, i int) []int {
	m := r.FindSubmatchIndex(sl[i:min(len(sl), i+maxTrigger)])
	for k := range m {
		if m[k] >= 0 {
			m[k] += i
		}
	}
	return m
}

// anchorToks tokenises sl into st.toks and returns them.
func (st *decisionState) anchorToks(sl []byte) []anchorTok {
	st.toks = anchorToks(sl, st.toks[:0])
	return st.toks
}

// findAtToks is findAt over the whole sentence sl, with its anchor words
// toks, for the anchor set bit.
func findAtToks(r *lazyRE, sl []byte, toks []anchorTok, bit uint8) []int {
	for _, t := range toks {
		if t.bits&bit == 0 {
			continue
		}
		if m := matchAt(r, sl, int(t.i)); m != nil {
			return m
		}
	}
	return nil
}

// findAt returns the submatch indexes of the first match of the anchored
// pattern r at the start of a word of anchors in sl, or nil.
func findAt(r *lazyRE, sl []byte, anchors *words.Set) []int {
	for i, j := nextWord(sl, 0); i < j; i, j = nextWord(sl, j) {
		if anchors.Has(sl[i:j]) {
			if m := matchAt(r, sl, i); m != nil {
				return m
			}
		}
	}
	return nil
}

const maxTrigger = 96

func isAnchorByte(c byte) bool { return anchorByte[c] }

// anchorByte is isAnchorByte as a table: findAt asks it for every byte of
// most sentences.
var anchorByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c == '\'' || c == ':' || c >= 0x80
	}
	return t
}()

// notCommitting are verbs after "we'll" or "let's" that defer, speculate or
// describe rather than settle ("we'll see", "let's discuss").
var notCommitting = set(`see need have be get lose probably likely possibly maybe want hit end know
	find decide figure talk discuss think look revisit circle wait sync chat review compare
	brainstorm explore dig learn ask check hear regret miss notice worry eventually deal
	not never all both each say assume suppose imagine pretend hope take go come debug
	verify investigate consider try understand walk step pause recap summarize continue
	reconsider double-check confirm research measure benchmark profile sort vote bring argue`)

// bareChoice returns the length of the choice that opens sentence k of a
// reply, sl, when it does nothing but name things the assistant (or the
// user before it) said, after a proposal or a set of alternatives: "Tenant
// sharding, since joins matter more." It returns 0 otherwise.
func bareChoice(sl []byte, k int, st *decisionState, pending *proposal) int {
	// A choice and a short reason fit in 200 bytes; most sentences are
	// longer, and spared the rest.
	if !st.replying || k > 1 && !st.sealed(k) && !shortConclusion(sl) || len(sl) > 200 {
		return 0
	}
	// Most sentences open with a word no choice opens with ("We", "Should",
	// "It"): refused before any pattern runs.
	if w := firstWord(bytes.TrimLeft(sl, " *_\"'")); words.IsStopword(string(bytes.TrimRight(w, ",.!"))) && !choiceGlue.Has(w) && !leadWords.Has(bytes.TrimRight(w, ",.!")) {
		return 0
	}
	if isQuestion(sl) {
		return 0
	}
	// The choice opens the reply, perhaps after a sentence that is only an
	// interjection ("Perfect. SQS for the queue, Redis for the cache."), or
	// anywhere when the next sentence seals it ("Clerk. Final.").
	if (k > 1 || k == 1 && !onlyInterjection(st.lower[st.sents[0].start:st.sents[0].end])) && !st.sealed(k) && !shortConclusion(sl) {
		return 0
	}
	start := leadEnd(sl)
	end := len(sl)
	if i := bytes.IndexAny(sl[start:], ";:(—–"); i >= 0 {
		end = start + i
		// "weekly full refresh — maybe, want to see the cost first",
		// "postmortems: we could probably reuse SRE's template": what
		// follows hedges, so nothing is picked.
		if after := sl[end:]; reTentative.Match(after) || bytes.Contains(after, []byte("maybe")) || bytes.Contains(after, []byte(" but ")) {
			return 0
		}
	}
	if loc := findAt(reReasonIn, sl[start:end], reasonAnchors); loc != nil {
		end = start + loc[0]
	}
	phrase := bytes.TrimRight(bytes.TrimSpace(sl[start:end]), ".!, ")
	for _, tail := range []string{" please", " then", " too", ", obviously", " obviously", ", of course", ", definitely"} {
		phrase = bytes.TrimSuffix(phrase, []byte(tail))
	}
	if notionLabels.Has(phrase) {
		return 0 // "update!! board meeting was last night": news follows
	}
	// After alternatives or a proposal only; checked last, as it reads the
	// whole of what was said.
	long := bytes.Count(phrase, []byte{' '}) >= 12
	if pending == nil && !offersAlternatives(st.saidLower) && !st.sealed(k) {
		return 0
	}
	if long || !st.namesOnly(phrase, 12) {
		// "Hash set, memory isn't a concern": the choice, then a comment.
		i := bytes.Index(phrase, []byte(", "))
		if i <= 0 {
			return 0
		}
		pre := bytes.TrimSuffix(phrase[:i], []byte(" then"))
		marked := bytes.TrimSuffix(pre, []byte(" please"))
		please := len(marked) < len(pre)
		pre = marked
		if long && (!please || doubtful(phrase[i+2:])) {
			// A long sentence opened by a thing said is a statement about
			// it ("Postgres, the one we run now, is slow …", "hash set
			// then, when we have the budget next year, …"), unless a
			// "please" marks the thing as chosen and the rest does not
			// take it back ("trigger please, there are raw SQL scripts …",
			// not "hash set please, or a bloom filter if …").
			return 0
		}
		if !st.namesOnly(pre, 6) {
			return 0
		}
		w, rest, _ := bytes.Cut(phrase[i+2:], []byte(" "))
		if settlingLeads.Has(bytes.TrimRight(w, ",.!")) {
			w = firstWord(rest) // "X, yes, but only after the audit"
		}
		if hedges.Has(w) || reservations.Has(w) || refusals.Has(bytes.TrimRight(w, ",.!")) {
			return 0 // "Hash set, but I'm unsure it fits": no choice yet
		}
		phrase = pre // "Lager at Dresdner then, booking it now"
	}
	return start + len(phrase)
}

// reThenNo is what follows a yes that turns another thing down: "; the
// shorts print, no — …" (group 1) or ", but no Renovate; …" (group 2),
// with a reason after a dash or semicolon (group 3).
var reThenNo = re(`^[^;]*?(?:;\s+([a-z0-9][^,;]{1,60}?),?\s+(?:no|nope|not that)\b|,?\s+but no ([a-z0-9][^,;.—–]{1,40}?)(?:\s*[,.;]|\s+[—–]|$))\s*(?:[.!]*\s*$|[—–;]\s*(.+))?`)

// remark reports what follows a yes after a dash that comments rather than
// adds to the thing: "— and you're right about the relatives", "— but
// that's HR's call".
func remark(after []byte) bool {
	w := firstWord(bytes.TrimLeft(after, " "))
	return (bytes.Equal(w, []byte("and")) || bytes.Equal(w, []byte("but"))) && isClause(after)
}

// doubtful reports a comment after a choice that hedges (see hedged),
// offers another thing, objects or asks: "or a bloom filter if …", "but
// …", "what does it cost".
func doubtful(comment []byte) bool {
	w := firstWord(comment)
	return hedged(comment) || askWords.Has(bytes.TrimRight(w, ",.!")) || containsAny(comment, " or ", " but ", "not convinced")
}

var askWords = set(`or what how why when which who is are does do can could should would`)

// shortConclusion reports a sentence of a few words opened by "so": "so
// aws." concludes whatever came before it.
func shortConclusion(sl []byte) bool {
	return bytes.HasPrefix(sl, []byte("so ")) && bytes.Count(bytes.TrimSpace(sl), []byte{' '}) <= 3
}

// said reports whether the word w (lower case) was said in saidLower: at
// the start of a word there, whole or followed by a plural ending.
func (st *decisionState) said(w []byte) bool { return saidIn(st.saidLower, w) }

// saidIn reports whether the word w (lower case) is in t: at the start of
// a word there, whole or followed by a plural ending.
func saidIn(t, w []byte) bool { return wordIndex(t, w) >= 0 }

// saidAny reports whether a content word of phrase (lower case) was said.
func (st *decisionState) saidAny(phrase []byte) bool {
	for w := range contentWords(string(phrase)) {
		if st.said([]byte(w)) {
			return true
		}
	}
	return false
}

// saidEarlier reports whether the assistant said most of the content words
// of phrase (lower case), three in five, in any message before this one.
func (st *decisionState) saidEarlier(phrase []byte) bool {
	n, said := shareIn(st.past(), phrase)
	return mostly(n, said, 1)
}

// past returns pastLower brought up to the message being read. It is built
// on first use, from the messages themselves: few conversations ever ask,
// and copying every answer as it is read cost all of them.
func (st *decisionState) past() []byte {
	for ; st.pastNext < st.cur; st.pastNext++ {
		m := &st.msgs[st.pastNext]
		if m.Role != conversation.RoleAssistant || !usable(m) || m.Sidechain {
			continue
		}
		st.pastLower = append(asciiLower(st.pastLower, words.Clean(m.Content, false)), '\n')
		if len(st.pastLower) > 2*pastWindow {
			cut := len(st.pastLower) - pastWindow
			for cut < len(st.pastLower) && wordByte(st.pastLower[cut]) {
				cut++ // not from the middle of a word
			}
			st.pastLower = append(st.pastLower[:0], st.pastLower[cut:]...)
		}
	}
	return st.pastLower
}

// saidInMessage reports whether every content word of phrase (lower case)
// occurs twice in the message being read: said once before the sentence
// that names it again.
func (st *decisionState) saidInMessage(phrase []byte) bool {
	n := 0
	for w := range contentWords(string(phrase)) {
		n++
		i := wordIndex(st.lower, []byte(w))
		if i < 0 || wordIndex(st.lower[i+len(w):], []byte(w)) < 0 {
			return false
		}
	}
	return n > 0
}

// wordIndex is where the word w (lower case) first starts a word in t,
// whole or with a plural ending, or -1.
func wordIndex(t, w []byte) int {
	for off := 0; len(w) > 0; {
		i := bytes.Index(t[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(w)
		if (i == 0 || !wordByte(t[i-1])) && (end == len(t) || !wordByte(t[end]) ||
			t[end] == 's' && (end+1 == len(t) || !wordByte(t[end+1]))) {
			return i
		}
		off = i + 1
	}
	return -1
}

func wordByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80 }

// namesOnly reports whether phrase (lower case) holds at most max words,
// each one said (a thing named before) or glue, and at least one said; a
// leading pronoun or a negation makes it a statement.
func (st *decisionState) namesOnly(phrase []byte, max int) bool {
	// Cheap refusals first: the words said are made only for a short
	// phrase.
	if n := bytes.Count(phrase, []byte{' '}); n >= max || len(phrase) == 0 {
		return false
	}
	fields := bytes.Fields(phrase)
	// A negation ("not", "don't", "no longer") is a stop word, refused below.
	if len(fields) == 0 || len(fields) > max || pronouns.Has(fields[0]) {
		return false
	}
	named := 0
	for _, f := range fields {
		f = bytes.Trim(f, "*_`\"'.!,")
		switch {
		case len(f) == 0 || choiceGlue.Has(f):
		case words.IsStopword(string(f)):
			return false // a clause ("we're in a worktree"), not a name
		case st.said(f) || bytes.HasSuffix(f, []byte("s")) && st.said(f[:len(f)-1]):
			named++
		default:
			return false
		}
	}
	return named > 0
}

// onlyInterjection reports a sentence that is nothing but "Perfect." or
// "OK, thanks!".
func onlyInterjection(sl []byte) bool {
	loc := reLead.FindIndex(head(sl))
	return loc != nil && len(bytes.Trim(sl[loc[1]:], " .!,")) == 0
}

// evalChoice returns where a verdict on something the assistant named
// starts in sl ("I think SQS makes sense for us", "SQS is the right
// call") and where the verdict ends, or -1, -1.
func evalChoice(sl []byte, st *decisionState) (start, thingEnd, end int) {
	if !st.replying || len(sl) > 200 || !containsAny(sl, "sense", "right", "best", "better", "obvious", "sounds", "enough", "plenty", " won", " fine", " nod", " wins", "what we", "what i") || isQuestion(sl) {
		return -1, -1, -1
	}
	start = leadEnd(sl)
	m := reEvalChoice.FindSubmatchIndex(head(sl[start:]))
	if m == nil || !st.namesOnly(sl[start+m[2]:start+m[3]], 6) {
		return -1, -1, -1
	}
	end = start + m[1]
	for end > start+m[3] && bytes.IndexByte([]byte(" .!,;"), sl[end-1]) >= 0 {
		end-- // "Playwright won, mainly …": the comma belongs to what follows
	}
	if bytes.Contains(sl[start+m[3]:end], []byte(" what ")) && (bytes.HasPrefix(sl[end:], []byte(" to ")) || bytes.HasPrefix(sl[end:], []byte(" before "))) {
		return -1, -1, -1 // "… is exactly what we wanted to avoid"
	}
	if bytes.HasPrefix(bytes.TrimLeft(sl[end:], " ,"), []byte("but ")) || bytes.Contains(sl[end:], []byte(" but ")) || bytes.HasPrefix(sl[end:], []byte(" for now")) {
		return -1, -1, -1 // "Tomás is the obvious pick technically but …", "118 is fine for now"
	}
	for _, tail := range []string{" to me", " to us", " for us", " for me", " too"} {
		if bytes.HasPrefix(sl[end:], []byte(tail)) {
			end += len(tail)
		}
	}
	return start + m[2], start + m[3], end
}

// reTakesIt is a clause that only takes what was just named: "so I'll take
// that", "let's do it".
var reTakesIt = re(`^(?:so |and )?(?:i'll|we'll|let's|lets) (?:take|go with|do|use|run with) (?:that|it|this|them)\s*[.!]*$`)

// amends reports whether the "with …" after a pick (lower case) changes
// the option o: a number it does not hold ("with a 30 day retention") or a
// thing it names ("with the error rate and the latency both watched"); not
// a manner ("with a heavy heart"), a clause ("with 3 engineers we can't
// run it") or the option restated ("with the 14 day retention as you
// wrote", "with the Loki stack we already run").
func amends(with []byte, o string) bool {
	if reComment.Match(with) || isClause(with) || containsAny(with, "as you", "you wrote", "you said", "already", "as planned", "as before") {
		return false
	}
	lo := asciiLower(nil, o)
	for i, j := nextNumber(with, 0); i < j; i, j = nextNumber(with, j) {
		if !bytes.Contains(lo, with[i:j]) {
			return true
		}
	}
	return !bytes.ContainsAny(with, "0123456789") && sharedWords(contentWords(string(with)), contentWords(o)) > 0
}

// leadWords are the first words of reLead's interjections.
var leadWords = set(`ok okay so alright all right great perfect fine good yes yeah yep cool then
	thanks thank sounds agreed also and but in that done works`)

// choiceGlue are the words a bare choice may hold besides the things named.
var choiceGlue = set(`the a an with and plus for of on in at to per via by one both + & definitely too
	also then please all two three four`)

// amendVerbs open the amendment of a "yes, but …" (an instruction); other
// words open an objection ("yes, but strict mode breaks two partners").
var amendVerbs = set(`keep use add make with without only skip drop set limit start put run move
	leave do let's lets we'll also cap pin rename split`)

// offersAlternatives reports a message that lays out a choice ("We could
// shard by tenant or by region").
func offersAlternatives(lower []byte) bool {
	return containsAny(lower, " or ", "either", "option", "alternative", " vs ", "versus", "could ") ||
		bytes.Count(lower, []byte("\n- **"))+bytes.Count(lower, []byte("\n* **")) >= 2 // a list of named things
}

// upperFirst capitalises a text that opens with a lower-case ASCII letter.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// subset reports whether every word of a is in b.
func subset(a, b map[string]struct{}) bool {
	for w := range a {
		if _, ok := b[w]; !ok {
			return false
		}
	}
	return true
}

// cutComment splits "the split; the other two only hide the problem" into
// the thing proposed and the comment on it after the semicolon.
func cutComment(dec string) (string, string) {
	i := strings.Index(dec, "; ")
	if i < 3 {
		return dec, ""
	}
	rest := dec[i+2:]
	first, _, _ := strings.Cut(strings.ToLower(rest), " ")
	if !commentStarts.HasString(first) {
		return dec, ""
	}
	return strings.TrimSpace(dec[:i]), trimText(rest)
}

// commentStarts open a clause about what was just proposed rather than
// more of it.
var commentStarts = set(`the it it's this that they which both either neither otherwise anything`)

// bareAgreed reports a sentence that opens with "Agreed on/to/that …", no
// subject before it.
func bareAgreed(sl []byte, loc []int) bool {
	start := 0
	if l := reLead.FindIndex(head(sl)); l != nil && l[1] <= loc[0] {
		start = l[1]
	}
	return loc[0] <= start+1 && bytes.HasPrefix(sl[loc[0]:], []byte("agreed"))
}

// agreedOnPoint reports agreement with a point made ("Agreed on the risk",
// "we agree on the trade-offs"), which settles nothing.
func agreedOnPoint(trigger, rest []byte) bool {
	if !bytes.HasSuffix(trigger, []byte("agreed on")) && !bytes.HasSuffix(trigger, []byte("agree on")) {
		return false
	}
	rest = bytes.TrimPrefix(bytes.TrimLeft(rest, " "), []byte("the "))
	w := firstWord(rest)
	return agreedPoints.Has(bytes.TrimRight(w, ".,;:!"))
}

var agreedPoints = set(`risk risks point points concern concerns caveat caveats downside downsides
	tradeoff tradeoffs trade-off trade-offs cost costs problem problems issue issues premise
	diagnosis analysis`)

// notDeciding are verbs after "we won't" that predict rather than decide
// ("we won't make the deadline", "it won't break anything").
var notDeciding = set(`make break happen matter work fit scale last affect able care mind cost
	fail succeed finish manage`)

// notRuledOut are the words after a "No" that make an idiom, not a thing
// ruled out ("no worries for now", "no problem yet").
var notRuledOut = set(`worries worry problem problems rush need idea luck change changes news
	issue issues one way doubt clue answer response reply decision feelings wonder pressure excuses
	surprises surprise offence offense harm stress`)

// planLabel and proposalLabel run their patterns only on sentences whose
// start holds a word the pattern needs: most sentences hold none.
func planLabel(sl []byte) []int {
	h := head(sl)
	// The pattern opens with "that's", "here's" or "this is", after at most
	// one interjection.
	first, rest, _ := bytes.Cut(bytes.TrimLeft(h, "*_ "), []byte(" "))
	second := firstWord(rest)
	if !deictic(first) && !deictic(second) {
		return nil
	}
	return rePlanLabel.FindIndex(h)
}

// label is userLabel for the user's sentences, planLabel for the
// assistant's.
func (st *decisionState) label(sl []byte) []int {
	if st.user {
		return userLabel(sl)
	}
	return planLabel(sl)
}

// userLabel is planLabel for the labels only a user's reply holds: a
// change of mind or a verdict announced inside a sentence.
func userLabel(sl []byte) []int {
	if loc := planLabel(sl); loc != nil {
		return loc
	}
	h := head(sl)
	if bytes.IndexByte(h, ':') < 0 && bytes.IndexByte(h, ',') < 0 && !bytes.Contains(h, []byte("—")) {
		return nil // every one of them ends on one of these
	}
	if containsAny(h, "change of plan", "changed my mind", "new plan", "scratch that", "settles it") {
		if loc := reChangeOfMind.FindIndex(h); loc != nil {
			return loc // "fine, changed my mind: exhausted deliveries stay in postgres"
		}
	}
	if containsAny(h, "final answer", "made the call", "approved for", "a yes to", "plan works", "it the rule", "it a rule", "it the policy", "it a policy") {
		if loc := reInlineLabel.FindIndex(h); loc != nil {
			return loc // "…, but final answer: FULL_TRANSITIVE", "I've made the call: we're buying …"
		}
	}
	return nil
}

func deictic(w []byte) bool {
	return bytes.HasPrefix(w, []byte("that")) || bytes.HasPrefix(w, []byte("here")) || bytes.HasPrefix(w, []byte("this"))
}

// userPlanLabel is proposalLabel for a line of the user's that opens with
// "Plan:"; a "Recommendation:" the user writes is a review's advice (often
// pasted), not a decision.
func userPlanLabel(sl []byte, lineStart, user bool) []int {
	if !user || !lineStart {
		return nil
	}
	if loc := proposalLabel(sl); loc != nil && loc[1] < len(sl) && bytes.Contains(sl[:loc[1]], []byte("plan")) {
		return loc
	}
	return nil
}

func proposalLabel(sl []byte) []int {
	h := head(sl)
	i := 0
	for i < len(h) && i < 48 && h[i] != ':' && h[i] != '-' && h[i] != 0xe2 { // 0xe2 opens "—" and "–"
		i++
	}
	if i == len(h) || i == 48 || !containsAny(h[:i], "plan", "propos", "suggest", "recommend", "what i", "simplest", "easiest", "concretely") {
		return nil
	}
	return reProposalLabel.FindIndex(h)
}

func containsAny(b []byte, subs ...string) bool {
	for _, s := range subs {
		if bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}

// keepVerb reports a trigger about keeping what is: its "that" is the state
// the previous sentence describes, not a proposal.
func keepVerb(trigger []byte) bool {
	for _, v := range []string{" keep", " stick with", " stay with", " lock"} {
		if bytes.HasSuffix(trigger, []byte(v)) {
			return true
		}
	}
	return false
}

// useVerb reports whether the trigger is about using something, the kind of
// phrase a walkthrough also uses.
func useVerb(trigger []byte) bool {
	return bytes.HasSuffix(trigger, []byte(" use")) || bytes.HasSuffix(trigger, []byte(" keep")) || bytes.HasSuffix(trigger, []byte(" implement"))
}

// decisionState is the scratch of one Decisions call.
type decisionState struct {
	lower []byte
	toks  []anchorTok // a sentence's anchor words, reused
	sents []sentence
	// words holds the content words of each decision found so far, to spot
	// repeats.
	words []map[string]struct{}
	// replying is set while a user message answers the assistant; asked
	// when the assistant's last message ended on a question; user while
	// the message read is the user's (the reply forms are the user's
	// only, and most text is the assistant's).
	replying, asked, user bool
	// askedFact is set when that question asks about the facts ("Does it
	// drop on wifi or on ethernet?"): a reply answers it rather than
	// decides.
	askedFact bool
	// accepted is set while the message being read took the proposal;
	// amended while its first sentence took it with a change ("Yes, but
	// …"), which that sentence's decision is.
	accepted, amended bool
	// saidLower is the assistant's last message and the user's message
	// before it, lower-cased: a reply naming only things said in them picks
	// among them. userLower is the user's last message.
	saidLower, userLower []byte
	// pastLower is what the assistant said before this message,
	// lower-cased: a user comes back to a thing laid out turns ago ("so
	// the bios are going into the appendix"). Once it grows past
	// 2×pastWindow bytes it is cut to its last pastWindow, at a word. It
	// holds the assistant's messages of msgs before pastNext (see past);
	// cur is the message being read.
	pastLower []byte
	// options are the labelled options the assistant laid out last, in
	// whichever message: "Jana signed off on (b)" turns later points at them.
	options map[string]string
	// questions are the numbered questions the assistant's last message
	// asked ("2. **Cancellations.** Delete them, or keep them with a
	// status?"): a reply's line 2 answers question 2.
	questions []numberedQuestion
	// lineTitle is the title of the assistant's point that the reply's
	// numbered line being read answers ("Keyboard traps in modals" for "1.
	// Yes, modals first. … we'll rip it out"): what its "it" is about.
	lineTitle     string
	msgs          []conversation.Message
	cur, pastNext int
}

// pastWindow bounds pastLower, and so the cost of a look-up in it.
const pastWindow = 64 << 10

type proposal struct {
	text, rationale string
	// options are the labelled options offered ("Option B: …"), by their
	// lower-case label.
	options map[string]string
	// items are the numbered list items of the message, an option each
	// ("2. ristretto – …"): kept as spans of itemText and cleaned only when
	// a reply picks one, as most numbered lists are steps nobody picks.
	itemText string
	items    []numberedItem
	// action is true for a change advised in the answer's first words
	// ("Add a composite index on …"), which only a plain yes takes: an
	// "ok, thanks" after it acknowledges.
	action bool
}

// numberedItem is a numbered list item or section of an assistant's
// message. A section's heading ("### 4. Banners") is only its title: advice
// is the section's first sentence ("I'd **drop them**."), what a yes to the
// section takes with the title.
type numberedItem struct {
	num, start, end int
	heading         bool
	advice          string
}

// hasOptions reports whether the message offered options to pick from.
func (p *proposal) hasOptions() bool { return len(p.options) > 0 || len(p.items) > 0 }

// option returns the text of the option labelled key ("b", "2").
func (p *proposal) option(key string) (string, bool) {
	if o, ok := p.options[key]; ok {
		return o, true
	}
	n, err := strconv.Atoi(key)
	if err != nil {
		return "", false
	}
	for i, it := range p.items {
		if it.num == n && it.heading {
			title, _ := p.section(n)
			if it.advice != "" {
				return underTitle(title, it.advice), true
			}
			// "## 4. Let admins enforce SSO" advises in its title; "## 2.
			// SCIM" names what the section is about, nothing to take.
			first := firstWord(asciiLower(nil, title))
			return title, adviceVerbs.Has(first)
		}
		if it.num == n {
			t := p.itemText[it.start:it.end]
			end := len(p.itemText)
			if i+1 < len(p.items) && p.items[i+1].start > it.end {
				end = p.items[i+1].start
			}
			if fix := itemFix(p.itemText[it.end:end]); fix != "" {
				// "**1. Fixed wait in checkout** … Proposed fix: wait on the
				// request instead of the clock.": a yes to the item takes
				// its fix, not its problem.
				title, _, _ := strings.Cut(t, "\n")
				title = withoutAside(strings.TrimRight(title, " *_")) // "(`checkout.cy.ts`, line 42)": where, not what
				return trimText(strings.TrimRight(cleanDecision(title, asciiLower(nil, title)), ".")) + ": " + fix, true
			}
			if dec := strings.TrimRight(cleanDecision(t, asciiLower(nil, t)), "."); len(dec) >= 3 {
				return dec, true
			}
		}
	}
	return "", false
}

// pointByPoint reports a reply that opens by answering the proposal's
// numbered point ("4. yes, makes sense"): its yes is to that point, not to
// the message's recommendation.
func pointByPoint(sents []sentence, p *proposal) bool {
	if len(sents) == 0 || sents[0].num == 0 {
		return false
	}
	for _, it := range p.items {
		if it.num == sents[0].num {
			return true
		}
	}
	return false
}

// title returns the title of the assistant's point n: a numbered section's
// heading, or the bold opening of a numbered item ("1. **Keyboard traps in
// modals (4).** These are blockers"), without its count; "" for none.
func (p *proposal) title(n int) string {
	if t, ok := p.section(n); ok {
		return t
	}
	for _, it := range p.items {
		if it.num != n || it.heading {
			continue
		}
		t, _, ok := boldLead(strings.TrimSpace(p.itemText[it.start:it.end]))
		if !ok || strings.Count(t, " ") > 6 {
			return ""
		}
		return withoutAside(t) // "(4)": how many, not what
	}
	return ""
}

// withoutAside is s without the parenthesis that ends it: an item title's
// count or place ("Keyboard traps in modals (4)").
func withoutAside(s string) string {
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		return s[:i]
	}
	return s
}

// boldLead splits a text that opens in bold ("**Time zones.** Do clinics
// span …") into the bold words, without their closing punctuation, and
// what follows.
func boldLead(s string) (lead, rest string, ok bool) {
	if !strings.HasPrefix(s, "**") {
		return "", s, false
	}
	i := strings.Index(s[2:], "**")
	if i <= 0 {
		return "", s, false
	}
	return strings.TrimRight(s[2:2+i], " .:"), s[2+i+2:], true
}

// section returns the title of the numbered section n ("### 4. Banners"),
// if the message has one.
func (p *proposal) section(n int) (string, bool) {
	for _, it := range p.items {
		if it.num == n && it.heading {
			return strings.TrimRight(trimText(p.itemText[it.start:it.end]), ".:"), true
		}
	}
	return "", false
}

// reItemFix is the fix an item of a list of problems proposes: "Proposed
// fix: wait on the request instead of the clock."
var reItemFix = re(`(?i)\b(?:proposed|suggested|possible) (?:fix|change|solution)\s*[:—–-]\s*([^\n]+)`)

// itemFix returns the first sentence of the fix that the text under a list
// item proposes, or "".
func itemFix(body string) string {
	m := reItemFix.FindSubmatchIndex([]byte(body))
	if m == nil {
		return ""
	}
	fix := body[m[2]:m[3]]
	if i := strings.Index(fix, ". "); i > 0 {
		fix = fix[:i]
	}
	fix = strings.TrimSuffix(trimText(fix), ":")
	if len(fix) < 3 {
		return ""
	}
	return fix
}

// Decisions returns what the conversation settles, in message order: the
// sentences of visible user and assistant messages that state a decision, and
// assistant recommendations the user's next message accepts (recorded at the
// accepting message). Each has Origin extracted.
func (e *Extractor) Decisions(c *conversation.Conversation) []conversation.Decision {
	st := e.dpool.Get().(*decisionState)
	defer func() {
		st.msgs = nil // the pool must not keep the conversation alive
		e.dpool.Put(st)
	}()
	st.words = st.words[:0]
	st.saidLower, st.userLower, st.pastLower = st.saidLower[:0], st.userLower[:0], st.pastLower[:0]
	st.msgs, st.pastNext, st.options, st.questions = c.Messages, 0, nil, st.questions[:0]
	var out []conversation.Decision
	var pending *proposal
	prevAssistant := false
	for i := range c.Messages {
		m := &c.Messages[i]
		st.cur = i
		if !usable(m) || m.Sidechain {
			continue
		}
		if strings.TrimSpace(m.Content) == "" {
			continue // a tool-call-only turn: the proposal stays pending
		}
		// What a tool injected into the message is nobody's decision.
		text := words.Clean(m.Content, false)
		st.lower = asciiLower(st.lower[:0], text)
		st.sents = joinWrapped(text, splitSentences(text, st.lower, st.sents[:0]))
		st.accepted, st.amended = false, false
		if m.Role == conversation.RoleUser && pending != nil && pending.text != "" && !namesOption(st, pending) && !pointByPoint(st.sents, pending) && accepts(text, st.lower, st.sents, pending.text) && (!pending.action || acceptsPlainly(st)) {
			// The user says yes: the proposal is what was decided, taken in the
			// accepting message. What the reply states itself follows.
			// "Fine, go ahead with that, minus the double points": what the
			// yes leaves out is decided against, and out of the plan taken.
			s0 := st.sents[0]
			taken, minus, minusEnd := pending.text, "", 0
			if mm := reMinus.FindSubmatchIndex(st.lower[s0.start:s0.end]); mm != nil && bytes.IndexByte(st.lower[s0.start:s0.end], '?') < 0 && !isClause(st.lower[s0.start+mm[2]:s0.start+mm[3]]) {
				// What is left out must be of the plan: "without a doubt",
				// "except the voucher is too generous", "without the app"
				// nobody proposed leave nothing out.
				thing := trimText(text[s0.start+mm[2] : s0.start+mm[3]])
				if hasAllWords(strings.ToLower(pending.text), strings.Fields(strings.ToLower(thing))) {
					minus, minusEnd = decidedAgainst+thing, mm[3]
					if skip := reMinusVerb.FindSubmatchIndex(st.lower[s0.start+mm[0]:]); skip != nil {
						minus = upperFirst(trimText(text[s0.start+mm[0]+skip[2] : s0.start+mm[3]])) // "…, except skip the re-permission email"
					}
					taken = withoutItem(taken, thing)
				}
			}
			out = e.appendDecision(st, out, m, taken, pending.rationale)
			st.accepted = true
			if minus != "" {
				out = e.appendDecision(st, out, m, minus, reasonAfterDash(text, s0, minusEnd, st.lower, st.sents, 0))
			}
		} else if m.Role == conversation.RoleUser && pending != nil && pending.text != "" && len(st.sents) > 0 {
			// "Yes, but keep the cron as a fallback", "Agreed — but raw
			// stays 180 days": the proposal, amended. An advised change only
			// with a change ("…, but cap it at 2"): "yes, but let's hold off"
			// puts it off.
			s0 := st.sents[0]
			if loc := reAcceptBut.FindIndex(head(st.lower[s0.start:s0.end])); loc != nil && bytes.IndexByte(st.lower[s0.start:s0.end], '?') < 0 {
				rest := st.lower[s0.start+loc[1] : s0.end]
				first := firstWord(rest)
				// A change verb, or a thing that stays as it is ("raw stays
				// 180 days"); not a put-off, a condition or an idiom ("put
				// it on hold", "only if finance agrees", "keep it in mind").
				changes := (amendVerbs.Has(first) && !(pending.action && deferringAmend.Has(first)) || reStaysAmend.Match(rest)) &&
					!reNotImperative.Match(rest) && !containsAny(rest, " if ", "on hold", " past ", " first", "make sure", "reservation", "without me")
				if amend := trimText(text[s0.start+loc[1] : s0.end]); len(amend) >= 3 && changes {
					// The change must survive the length limit: the proposal
					// gives way.
					room := max(e.opts.MaxDecisionLen-utf8.RuneCountInString(amend)-len(" — but "), 40)
					out = e.appendDecision(st, out, m, truncate(pending.text, room)+" — but "+amend, pending.rationale)
					st.amended = true
				}
			}
		}
		before := len(out)
		st.replying = m.Role == conversation.RoleUser && prevAssistant
		prevAssistant = m.Role == conversation.RoleAssistant
		out = e.directDecisions(out, m, text, st, pending)
		if m.Role == conversation.RoleUser && len(out) > before {
			out = e.companions(out, m, text, st)
		}
		if m.Role == conversation.RoleAssistant {
			st.questions = numberedQuestions(text, st.lower, st.sents, st.questions[:0])
			pending = e.findProposal(text, st)
			if pending != nil && len(pending.options) > 1 {
				// One "(b) is simpler" line names an option; it lays out none.
				st.options = pending.options
			} else if (pending == nil || !pending.hasOptions()) && namesOptionOf(m.Content, st.options) {
				// "I'd go with **A**", answering a question about the
				// options laid out before: a reply picks from those.
				if pending == nil {
					pending = &proposal{}
				}
				pending.options = st.options
			}
			st.asked = len(st.sents) > 0 && isQuestion(st.lower[st.sents[len(st.sents)-1].start:st.sents[len(st.sents)-1].end])
			st.askedFact = false
			if st.asked {
				last := st.sents[len(st.sents)-1]
				w := firstWord(bytes.TrimLeft(st.lower[last.start:last.end], " *_"))
				st.askedFact = factQuestions.Has(w)
			}
			st.saidLower = append(append(append(st.saidLower[:0], st.lower...), '\n'), st.userLower...)
		} else {
			pending = nil
			st.questions = st.questions[:0]
			st.userLower = append(st.userLower[:0], st.lower...)
		}
		if len(out) >= e.opts.MaxDecisions {
			out = out[:e.opts.MaxDecisions]
			break
		}
	}
	return out
}

// directDecisions appends the decisions m states in so many words. A
// decision whose object is "that" or "it" is resolved to what it points at
// (the state the previous sentence describes, or the proposal just made), or
// dropped: "We'll go with that" on its own tells a reader nothing.
func (e *Extractor) directDecisions(out []conversation.Decision, m *conversation.Message, text string, st *decisionState, pending *proposal) []conversation.Decision {
	lower := st.lower
	user := m.Role == conversation.RoleUser
	st.user = user
	planPara := -1    // the paragraph a user's "Here's what we'll do." opens
	decidedPara := -1 // the paragraph a user's inline "decided:" opens
	for k, s := range st.sents {
		if k == 0 && st.amended {
			continue // "Agreed — but raw stays 180 days" is in the amended proposal
		}
		sl := lower[s.start:s.end]
		body, textStart := -1, -1
		picksThing := false // the trigger's object is a thing picked ("go with X")
		if s.lineStart {
			st.lineTitle = ""
			if user && s.num > 0 && pending != nil {
				st.lineTitle = pending.title(s.num)
			}
		}
		if user && (isPlanLine(sl) || st.replying && isRecapLine(sl)) {
			// A recap answers the assistant ("Summary:" opening a first
			// message describes an incident). "Let's do this." that took
			// the proposal is the yes, not the announcement of the
			// sentences after it (a list after it still is a plan:
			// afterPlan).
			if !(st.accepted && k == 0) {
				planPara = s.para
			}
			continue
		}
		if user && s.lineStart && s.num > 0 && st.replying {
			// "4. Per clinic.": the reply's line N answers the question N.
			if dec, ok := st.answersQuestion(text[s.start:s.end], sl, s.num); ok {
				out = e.appendDecision(st, out, m, dec, "")
				continue
			}
		}
		if user && (k <= 1 || s.lineStart) && pending != nil && pending.hasOptions() {
			// "1 and 2 are in": each option picked is a decision.
			if picked := pickedItems(sl, pending); picked != nil {
				out = e.appendAll(st, out, m, picked)
				continue
			}
			// "4. yep, banners go.": the reply's line N answers the item N.
			if s.lineStart && s.num > 0 {
				if dec, ok := st.answersItem(text[s.start:s.end], sl, s.num, pending); ok {
					out = e.appendDecision(st, out, m, dec, "")
					continue
				}
			}
			// "2 no, 10 min stale is fine": an item refused.
			if no := reItemNo.FindSubmatchIndex(head(sl)); no != nil {
				if o, ok := pending.option(string(sl[no[2]:no[3]])); ok {
					out = e.appendDecision(st, out, m, decidedAgainst+o, trimText(text[s.start+no[1]:s.end]))
					continue
				}
			}
			// "Option 2.", "The second one.": the option is the decision.
			o := pickedOption(sl, pending)
			if w := rePickWith.FindSubmatchIndex(sl); w != nil && w[0] < 20 {
				if o == "" {
					// "B but with …", "B — but with …": the pick before it.
					o = pickedOption(append(bytes.Clone(sl[:w[0]]), '.'), pending)
				}
				if amend := trimText(text[s.start+w[2] : s.end]); o != "" && amends(sl[w[2]:], o) {
					// "B, but with a 30 day retention": the option, amended;
					// the change must survive the length limit.
					room := max(e.opts.MaxDecisionLen-utf8.RuneCountInString(amend)-len(" — but "), 40)
					out = e.appendDecision(st, out, m, truncate(o, room)+" — but "+amend, "")
					continue
				}
			}
			if o == "" && pickOnly(sl) {
				continue // "Going with C." of two options names nothing
			}
			if o != "" && restates(sl, o) {
				// "We're going with (a), fixed horizon at 8% MDE: run until
				// 68k per arm": the reply says what it picks, and more.
				dec, why := splitReason(text, lower, s.start, s.start, s.end)
				out = e.appendDecision(st, out, m, dec, why)
				continue
			}
			if o != "" {
				if reMidImperative.Match(sl) {
					// "B, but start with strictNullChecks": the pick, and
					// the instruction that amends it, found below.
					out = e.appendDecision(st, out, m, o, "")
				} else {
					_, why := splitReason(text, lower, s.start, s.start, s.end) // "Option B, since the export does the same"
					out = e.appendDecision(st, out, m, o, why)
					continue
				}
			}
		}
		if user {
			if vp, why, ok := refusedSuggestion(text, lower, st.sents, k); ok {
				// "someone on the team asked to log full request bodies at
				// DEBUG. No.": what was asked for, refused.
				out = e.appendDecision(st, out, m, decidedAgainst+vp, why)
				continue
			}
		}
		if user && k == 0 {
			if end := st.pickedByName(sl); end > 0 {
				// "drizzle, we like having the schema in ts": one of the
				// alternatives laid out by name, picked.
				out = e.appendDecision(st, out, m, strings.TrimSpace(text[s.start:s.start+end]), trimText(strings.TrimLeft(text[s.start+end:s.end], ",.;!—– ")))
				continue
			}
		}
		if user && s.para == decidedPara && decidedItem(sl) {
			dec, why := splitReason(text, lower, s.start, s.start, s.end)
			out = e.appendDecision(st, out, m, dec, why)
			continue
		}
		if user && st.replying && len(sl) < 100 && bytes.Contains(sl, []byte(" it")) {
			if v := reOnIt.FindSubmatchIndex(sl); v != nil {
				if topic := paraTopic(text, lower, st.sents, k); topic != "" {
					if dec := onIt(topic, sl[v[2]:v[3]], sl[v[4]:v[5]], text[s.start+v[2]:s.end]); dec != "" {
						out = e.appendDecision(st, out, m, dec, nextReason(text, lower, st.sents, k))
						continue
					}
				}
			}
		}
		if loc := labelAt(sl, s.lineStart); loc != nil {
			if !labelDecides(sl[:loc[1]], sl[loc[1]:]) {
				continue
			}
			body, textStart = s.start+loc[1], s.start+loc[1]
			if lab := bytes.TrimSpace(bytes.Trim(sl[:loc[1]], " *_")); user && (bytes.Equal(lab, []byte("decided:")) || bytes.Equal(lab, []byte("decisions:"))) {
				decidedPara = s.para // "decided: SQS. redis for the cache. no memcached."
			}
		} else if s.afterLabel || user && (s.afterPlan || s.para == planPara) {
			// A question or a musing ("I wonder whether …", "maybe restart")
			// under a plan is no item of it.
			if isQuestion(sl) || musingItem(sl) {
				continue
			}
			if !s.afterLabel && !s.afterPlan && bytes.Count(bytes.TrimSpace(sl), []byte{' '}) < 2 {
				continue // "No idea." after "Here's the plan." and a question: a reply, not an item
			}
			body, textStart = s.start, s.start
		} else if loc := userPlanLabel(sl, s.lineStart, user); loc != nil {
			// The user's own "Plan: …" states what they will do.
			if !labelDecides(sl[:loc[1]], sl[loc[1]:]) {
				continue
			}
			body, textStart = s.start+loc[1], s.start+loc[1]
		} else if loc := st.label(sl); loc != nil && loc[1] < len(sl) {
			if m.Role == conversation.RoleAssistant {
				continue // the assistant's plan is a proposal until the user takes it
			}
			body, textStart = s.start+loc[1], s.start+loc[1]
			picksThing = rePicksAfterLabel.Match(head(sl[loc[1]:])) // "change of plan: we go with X, …"
		} else if at := st.soIts(sl); at >= 0 && user {
			// "So it's the booking platform, with 5-minute slots …".
			dec, why := splitReason(text, lower, s.start+at, s.start+at, s.end)
			out = e.appendDecision(st, out, m, dec, why)
			continue
		} else if loc := st.soThing(sl); loc != nil && user {
			// "… — so per-instance breakers, no shared state".
			out = e.appendDecision(st, out, m, text[s.start+loc[0]:s.start+loc[1]], "")
			continue
		} else if loc, r := st.pointsBack(sl); loc != nil && user {
			// "Paging only on SLO burn-rate alerts … — yes, let's set it up
			// that way": the clause is what "it" takes up.
			why := nextReason(text, lower, st.sents, k)
			if r != nil {
				why = trimText(text[s.start+r[0] : s.start+r[1]])
			}
			out = e.appendDecision(st, out, m, upperFirst(trimText(text[s.start+loc[0]:s.start+loc[1]])), why)
			continue
		} else if loc := itIs(sl); loc != nil && m.Role == conversation.RoleUser {
			dec := text[s.start+loc[0] : s.start+loc[1]]
			// "SQS it is, and Redis for the cache": the rest is part of it.
			tail := strings.TrimRight(strings.TrimSpace(text[s.start+loc[1]+len(" it is"):s.end]), ".!")
			if tail != "" && conjoined(lower[s.start+loc[1]+len(" it is"):s.end]) && tailAdds(lower[s.start+loc[1]+len(" it is"):s.end]) {
				dec += tail
			} else if spelled := trimText(strings.TrimPrefix(tail, ":")); strings.HasPrefix(tail, ":") && len(spelled) >= 3 && reOptionName.MatchString(strings.ToLower(dec)) {
				dec += ": " + spelled // "option B it is: 40% exam, 40% group project …" says what B is
			}
			out = e.appendDecision(st, out, m, dec, nextReason(text, lower, st.sents, k))
			continue
		} else if loc := st.okThen(sl); loc != nil {
			out = e.appendDecision(st, out, m, text[s.start+loc[0]:s.start+loc[1]], nextReason(text, lower, st.sents, k))
			continue
		} else if loc := st.forThe(sl); loc != nil {
			out = e.appendDecision(st, out, m, text[s.start+loc[0]:s.start+loc[1]], reasonAfterDash(text, s, loc[1], lower, st.sents, k))
			continue
		} else if loc := st.swap(sl); loc != nil {
			out = e.appendDecision(st, out, m, upperFirst(text[s.start+loc[0]:s.start+loc[1]]), reasonAfterDash(text, s, loc[1], lower, st.sents, k))
			continue
		} else if loc := st.makeNot(sl); loc != nil {
			out = e.appendDecision(st, out, m, upperFirst(text[s.start+loc[0]:s.start+loc[1]]), reasonAfterDash(text, s, loc[1], lower, st.sents, k))
			continue
		} else if loc := st.getsNod(sl); loc != nil {
			out = e.appendDecision(st, out, m, text[s.start+loc[0]:s.start+loc[1]], reasonAfterDash(text, s, loc[2], lower, st.sents, k))
			continue
		} else if loc := st.thenComma(sl); loc != nil {
			// What follows the comma is more of the choice when it is only
			// its details ("…, transaction mode, pool size 20") or how to
			// go about it ("…, ship OTLP to the gateway"), else its reason
			// ("…, self-hosting isn't happening").
			dec, rest := text[s.start+loc[0]:s.start+loc[1]], trimText(text[s.start+loc[2]:s.end])
			why := nextReason(text, lower, st.sents, k)
			switch first := firstWord(sl[loc[2]:]); {
			case reSignOff.Match(sl[loc[2]:]):
				// "PgBouncer then, thanks!": the pick alone.
			case detailsOnly(sl[loc[2]:]) || adviceVerbs.Has(first) && !bytes.Equal(first, []byte("go")) && !bytes.Equal(first, []byte("let")):
				dec += ", " + rest
			default:
				why = rest
			}
			out = e.appendDecision(st, out, m, dec, why)
			continue
		} else if loc := st.userRuledOut(sl); loc != nil && !isQuestion(sl) {
			// "Keycloak is out, nobody wants to run it": the clause is the
			// decision, what follows it the reason.
			dec := cleanDecision(text[s.start+loc[0]:s.start+loc[1]], sl[loc[0]:loc[1]])
			if num, _, _ := strings.Cut(dec, " "); pending != nil && len(num) == 1 && num[0] >= '0' && num[0] <= '9' {
				if o, ok := pending.option(num); ok {
					dec = decidedAgainst + o // "3 is out" of a numbered list
				}
			}
			out = e.appendDecision(st, out, m, dec, trimText(text[s.start+loc[1]:s.end]))
			continue
		} else if loc := st.trigger(sl, m.Role); loc != nil {
			if !settles(sl, loc, m.Role) || agreedOnPoint(sl[loc[0]:loc[1]], sl[loc[1]:]) || noConsensus(sl, loc) || user && st.everydayUse(sl, loc) {
				continue
			}
			if st.accepted && k == 0 && bareAgreed(sl, loc) {
				continue // "Agreed on splitting." only says yes to the proposal taken
			}
			body, textStart = s.start+loc[1], s.start+clauseAfterDash(sl[:loc[0]], sl[loc[0]:])
			picksThing = rePicksThing.Match(sl[loc[0]:loc[1]])
			if first := firstWord(sl[loc[0]:loc[1]]); loc[0] > 0 && (imperativeVerbs.Has(first) || user && (planAnchors.Has(first) || concludes(sl[:loc[0]]))) {
				// An instruction mid-sentence starts at its verb, "the plan
				// is …" at its subject.
				textStart = s.start + loc[0]
			}
			if bytes.HasPrefix(sl[loc[0]:], []byte("ended up")) {
				textStart = s.start + loc[0] // no subject: what precedes is another clause
			}
			if bytes.HasPrefix(sl[loc[0]:], []byte("consensus ")) && (bytes.HasSuffix(sl[:loc[0]], []byte(" and ")) || bytes.HasSuffix(sl[:loc[0]], []byte(", "))) {
				textStart = body // "we held a vote, and consensus is a shared schema": what it is
			}
			if t := sl[loc[0]:loc[1]]; bytes.HasPrefix(t, []byte("decided")) {
				// "Decided: X" / "It's decided, X": the decision is X.
				if i := bytes.IndexAny(t, ":,—–-"); i >= 0 && i < len("decided")+2 {
					_, size := utf8.DecodeRune(t[i:])
					body, textStart = s.start+loc[0]+i+size, s.start+loc[0]+i+size
					if user && t[i] == ':' {
						decidedPara = s.para // "decided: X. log RT. no brms.": a list, a sentence an item
					}
					// "Decided, we'll see": what follows defers.
					if m := reUserWill.FindSubmatchIndex(head(bytes.TrimLeft(lower[body:s.end], " "))); m != nil && notCommitting.Has(bytes.TrimLeft(lower[body:s.end], " ")[m[2]:m[3]]) {
						continue
					}
				}
			}
			obj := lower[body:s.end]
			if pending != nil && pending.hasOptions() {
				if picked := pickedItems(obj, pending); picked != nil {
					out = e.appendAll(st, out, m, picked)
					continue
				}
				ref := reOptionRef.FindSubmatchIndex(head(obj))
				// "Let's go with option B": the option's text is the decision.
				o, ok := pending.option(optionKey(obj, ref))
				if !ok {
					o = pickedOption(bytes.TrimSpace(obj), pending) // "Let's go with 2."
					ok = o != ""
				}
				if subj := bytes.TrimSpace(sl[:loc[0]]); !ok && len(subj) > 0 && len(subj) <= 12 && reUserVerdict.Match(head(sl[loc[0]:])) {
					// "Option (b) is the one": the option named before the verdict.
					key := strings.NewReplacer("(", "", ")", "").Replace(string(subj)) // "option (b)" names option b
					o = pickedOption([]byte(key+"."), pending)
					ok = o != ""
				}
				if ok && restates(sl, o) {
					ok = false // the sentence says it in its own words, read below
				}
				if ok {
					_, why := splitReason(text, lower, textStart, body, s.end)
					out = e.appendDecision(st, out, m, o, why)
					continue
				}
			}
			if how := reAnaphorHow.FindIndex(head(obj)); how != nil && st.accepted && pending != nil && inProposal(obj[how[1]:], pending.text) {
				continue // "OK, let's do it with mice" after "I suggest mice with …": the yes took the proposal
			}
			if mod := reAnaphorBut.FindSubmatchIndex(head(obj)); mod != nil {
				// "Let's do that but with two slots": the proposal, amended.
				if dec, ok := e.antecedent(text, lower, st.sents, k, sl[loc[0]:loc[1]], pending, st.replying && st.asked); ok {
					amend, why := splitReason(text, lower, body+mod[2], body+mod[3], s.end)
					if word := text[body+mod[2] : body+mod[3]]; !strings.HasPrefix(amend, word) {
						amend = word + " " + amend // cleanDecision took "but" for an interjection
					}
					out = e.appendDecision(st, out, m, dec+" — "+amend, why)
				}
				continue
			}
			if reAnaphor.Match(head(obj)) {
				if t := sl[loc[0]:loc[1]]; defers(t) || reLaterFor.Match(head(obj)) {
					continue // "Let's shelve that", "save that for the next sprint": put off, not taken
				}
				if sp := reSpelledAfter.FindSubmatchIndex(obj); sp != nil && user && !rejects(sl[loc[0]:loc[1]]) && !reNegation.Match(sl[loc[0]:loc[1]]) {
					// "lets do it: 30% off under 50 units a week, 40% off for
					// 50+": what "it" is, in the user's own words.
					dec, why := splitReason(text, lower, body+sp[2], body+sp[2], s.end)
					out = e.appendDecision(st, out, m, dec, why)
					continue
				}
				_, why := splitReason(text, lower, textStart, body, s.end)
				if why == "" {
					why = nextReason(text, lower, st.sents, k)
				}
				if dec, ok := e.antecedent(text, lower, st.sents, k, sl[loc[0]:loc[1]], pending, st.replying && st.asked); ok {
					if why == "" && pending != nil && dec == pending.text {
						why = pending.rationale
					}
					if t := sl[loc[0]:loc[1]]; reNegation.Match(t) != rejects(t) {
						// "Let's not do that", "Scrap that": what it points at
						// is what was decided against, not what was decided
						// ("we won't drop it" keeps it).
						dec = decidedAgainst + dec
						if pending != nil && why == pending.rationale {
							why = "" // the proposal's reason argues for it
						}
					}
					out = e.appendDecision(st, out, m, dec, why)
				} else if i := st.restated(sl); i >= 0 && user {
					// "let's do it: SDKs in the services, a Collector in the
					// cluster": "it" is what the reply restates.
					dec, why := splitReason(text, lower, s.start+i, s.start+i, s.end)
					out = e.appendDecision(st, out, m, dec, why)
				} else if user && loc[0] > 0 && st.topicChoice(sl[:loc[0]]) {
					// "Tickets: I love the tiered idea, let's do it": "it"
					// is the point the sentence opened with.
					out = e.appendDecision(st, out, m, strings.TrimRight(text[s.start:s.start+loc[0]], " ,;—–-"), "")
				}
				continue
			}
		} else if i, thing, j := evalChoice(sl, st); i >= 0 && m.Role == conversation.RoleUser {
			if rest := bytes.TrimLeft(sl[j:], " "); len(rest) == 0 || bytes.Contains(sl[thing:j], []byte("what ")) && len(bytes.Trim(rest, ".! ")) == 0 || rest[0] == ',' || rest[0] == ';' || rest[0] == ':' || bytes.HasPrefix(rest, []byte("—")) {
				// "Protobuf makes sense to me, the Go team already uses it":
				// the thing, and what follows the verdict as the reason.
				why := trimText(text[s.start+j : s.end])
				if reTakesIt.MatchString(strings.ToLower(why)) {
					why = "" // "…, so I'll take that" takes it; it gives no reason
				}
				out = e.appendDecision(st, out, m, cleanDecision(text[s.start+i:s.start+thing], sl[i:thing]), why)
				continue
			}
			body, textStart = s.start+i, s.start+i
		} else if loc := st.stays(sl); loc != nil {
			// "the admin app stays on Jest until its tests are rewritten".
			dec, why := splitReason(text, lower, s.start+loc[0], s.start+loc[0], s.start+loc[1])
			if why == "" && loc[1] < len(sl) {
				why = reasonAfterDash(text, s, loc[1], lower, st.sents, k) // "The take-home goes — candidates hate it"
			}
			out = e.appendDecision(st, out, m, dec, why)
			continue
		} else if loc := st.yesTo(sl); loc != nil {
			// "And yes to peer assessment that scales the mark", "no to the
			// vivas": the thing, taken or refused.
			dec, why := splitReason(text, lower, s.start+loc[4], s.start+loc[4], s.end)
			if thing, rest, ok := strings.Cut(dec, ", "); ok && why == "" && strings.Count(thing, " ") < 5 && len(thing) > 1 {
				dec, why = thing, trimText(rest) // "nope to ha long, too touristy"
			}
			if key, rest, _ := strings.Cut(strings.ToLower(dec), ","); pending != nil && len(key) == 1 {
				if o, ok := pending.option(key); ok {
					dec, why = o, trimText(rest) // "no to D, finance reconciles same-day"
				}
			}
			if v := sl[loc[2]:loc[3]]; bytes.HasSuffix(v, []byte("no")) || bytes.Equal(v, []byte("nope")) {
				dec = decidedAgainst + dec // "no to the vivas", "a hard no to MySQL", "nope to ha long"
			}
			out = e.appendDecision(st, out, m, dec, why)
			continue
		} else if from, end := st.labelledNo(sl); end > 0 && user {
			// "async: no.": the thing named, refused.
			out = e.appendDecision(st, out, m, decidedAgainst+trimText(text[s.start+from:s.start+end]), "")
			continue
		} else if loc := st.flatNo(sl); loc != nil && user {
			// "and definitely no terragrunt, used it at my last job", "No
			// shim.": a thing discussed, ruled out.
			out = e.appendDecision(st, out, m, upperFirst(text[s.start+loc[0]:s.start+loc[1]]), trimText(text[s.start+loc[1]:s.end]))
			continue
		} else if end, more, against := st.acceptedAfter(sl); end > 0 && user {
			// "12 partitions keyed by customer_id, yep.": the thing, then the
			// yes (or the no).
			start := 0
			if i := bytes.Index(sl[:end], []byte(": ")); i > 0 && bytes.Count(sl[:i], []byte{' '}) < 3 {
				start = i + 2 // "metric: conversion per visitor, agreed"
			}
			dec := cleanDecision(text[s.start+start:s.start+end], sl[start:end])
			if against {
				dec = decidedAgainst + dec
			} else if more > 0 && !remark(sl[more:]) {
				dec += " — " + trimText(text[s.start+more:s.end])
			}
			out = e.appendDecision(st, out, m, dec, "")
			if no := reThenNo.FindSubmatchIndex(sl[end:]); !against && no != nil && no[0] < 24 {
				// "Sponsor logo on the front, yes; the shorts print, no —
				// nobody looks at it", "Pin by digest, yes, but no
				// Renovate; …": the thing turned down beside it.
				thing, why := no[2], no[3]
				if thing < 0 {
					thing, why = no[4], no[5]
				}
				reason := ""
				if no[6] >= 0 {
					reason = trimText(text[s.start+end+no[6] : s.end])
				}
				if t := trimText(text[s.start+end+thing : s.start+end+why]); len(t) > 1 && !pronouns.Has(firstWord(sl[end+thing:end+why])) {
					out = e.appendDecision(st, out, m, decidedAgainst+t, reason)
				}
			}
			continue
		} else if loc := st.arrow(sl); loc != nil {
			// "report → bullmq job scheduler", "backups -> backblaze b2".
			out = e.appendDecision(st, out, m, trimText(text[s.start+loc[0]:s.start+loc[1]]), trimText(text[s.start+loc[1]:s.end]))
			continue
		} else if end := st.contrast(sl); end > 0 && user {
			// "One index with per-language fields, not
			// index-per-language.": the thing taken over another.
			dec, why := splitReason(text, lower, s.start, s.start, s.end)
			if why == "" && s.start+end < s.end {
				dec, why = text[s.start:s.start+end], trimText(strings.TrimLeft(text[s.start+end:s.end], ", "))
			}
			out = e.appendDecision(st, out, m, dec, why)
			continue
		} else if end := st.soNo(sl); end > 0 && user {
			// "hybrid i dont really get the point of, two systems to
			// maintain, so no.": the thing, turned down.
			out = e.appendDecision(st, out, m, decidedAgainst+text[s.start:s.start+end], "")
			continue
		} else if st.topicChoice(sl) && user {
			// "Handoff day: moving it to Wednesday": a point of the
			// assistant's, then what the user makes of it.
			dec, why := splitReason(text, lower, s.start, s.start, s.end)
			out = e.appendDecision(st, out, m, dec, why)
			continue
		} else if st.restatedAfterYes(sl, k) {
			// "Fine by me. Per-field last-write-wins with a log of every
			// overwritten value": the yes, then the thing, a sentence each.
			dec, why := splitReason(text, lower, s.start, s.start, s.end)
			out = e.appendDecision(st, out, m, dec, why)
			continue
		} else if i := st.restated(sl); i >= 0 && user {
			// "Yeah ok, ARC runners with the in-cluster service account":
			// the yes, then what was proposed in the user's own words.
			body, textStart = s.start+i, s.start+i
		} else if end := bareChoice(sl, k, st, pending); end > 0 {
			// A reply that only names one of the things just proposed picks
			// it: "Logical replication, since we run Postgres anyway."
			_, why := splitReason(text, lower, s.start, s.start+end, s.end)
			dec := cleanDecision(text[s.start:s.start+end], sl[:end])
			if named := contentWords(dec); pending != nil && pending.text != "" && subset(named, contentWords(pending.text)) {
				dec = pending.text
				if why == "" {
					why = pending.rationale
				}
			}
			if in := st.pickInContext(dec); in != "" {
				dec = in // "weekly" under "## Summary cadence" is the cadence
			}
			out = e.appendDecision(st, out, m, dec, why)
			continue
		} else if loc := st.forget(sl); loc != nil {
			// "yeah forget the MG, no way to charge": ruled out, then why.
			out = e.appendDecision(st, out, m, decidedAgainst+text[s.start+loc[0]:s.start+loc[1]], trimText(text[s.start+loc[2]:s.end]))
			continue
		} else {
			continue
		}
		dec, why := splitReason(text, lower, textStart, body, s.end)
		if why == "" && picksThing {
			// "we go with the cursor connections for all lists, the admin
			// will have next/previous buttons": after the thing picked, a
			// clause with a subject of its own comments on it.
			if i := reClauseAfter.FindIndex(lower[body:s.end]); i != nil {
				dec, _ = splitReason(text, lower, textStart, body, body+i[0])
				why = cleanReason(text[body+i[0]+2 : s.end])
			}
		}
		if why == "" {
			why = nextReason(text, lower, st.sents, k)
		}
		out = e.appendDecision(st, out, m, dec, why)
	}
	st.lineTitle = "" // companions and the next message answer no numbered line
	return out
}

// saidAlready reports whether a decision of message idx in out opens dec,
// or dec opens it: one sentence is not recorded twice, whole and in part.
func saidAlready(out []conversation.Decision, idx int, dec string) bool {
	for i := len(out) - 1; i >= 0 && out[i].MessageIndex == idx; i-- {
		d := out[i].Decision
		if len(d) >= 8 && len(d) <= len(dec) && strings.EqualFold(dec[:len(d)], d) || len(dec) >= 8 && len(dec) < len(d) && strings.EqualFold(d[:len(dec)], dec) {
			return true
		}
	}
	return false
}

// companions appends the statements of how things will be that sit next to
// the decisions m has just stated (see reCompanion).
func (e *Extractor) companions(out []conversation.Decision, m *conversation.Message, text string, st *decisionState) []conversation.Decision {
	for k, s := range st.sents {
		sl := st.lower[s.start:s.end]
		if isQuestion(sl) || k == 0 && st.amended {
			continue
		}
		// The sentence, or a clause after a semicolon or a dash: "Switch to
		// Vitest; the admin app stays on Jest".
		for from := 0; from >= 0; from = nextClause(sl, from) {
			start := from + leadEnd(sl[from:])
			end := companion(sl[start:])
			if end == 0 {
				continue
			}
			dec, why := splitReason(text, st.lower, s.start+from, s.start+start+end, s.end)
			if why == "" {
				why = nextReason(text, st.lower, st.sents, k)
			}
			if saidAlready(out, m.Index, dec) {
				break // "the maple stays, my partner would divorce me": taken as "the maple stays"
			}
			if from > 0 {
				out = st.cutBefore(out, m, text[s.start:s.start+from], dec)
			}
			out = e.appendDecision(st, out, m, dec, why)
			break
		}
	}
	return out
}

// companion returns where the statement of how a thing will be that opens
// s (reCompanion) ends, or 0: none about a person ("It will be slower",
// "We will be …" are no plan's state), nor hypothetical, negated or
// tentative.
func companion(s []byte) int {
	loc := reCompanion.FindIndex(head(s))
	if loc == nil {
		return 0
	}
	if first := firstWord(s); pronouns.Has(first) {
		return 0
	}
	verb := s[:loc[1]]
	if reHypothetical.Match(verb) || reNegation.Match(verb) || reTentative.Match(verb[:max(0, bytes.LastIndex(verb, []byte(" will ")))]) {
		return 0
	}
	return loc[1]
}

// hasSubject reports whether a reUserDone match opens with its own "I" or
// "we" rather than with the bare verb ("went with", whose "we" is no
// subject).
func hasSubject(m []byte) bool {
	i, j := nextWord(m, 0)
	return i == 0 && doneSubjects.Has(m[i:j])
}

var doneSubjects = set(`i we i've i’ve we've we’ve`)

// onlyLead reports a prefix that is only an interjection ("OK, ").
func onlyLead(prefix []byte) bool {
	loc := reLead.FindIndex(head(prefix))
	return loc != nil && loc[1] == len(prefix)
}

// turnsDown reports whether "not <verb>" and what follows turn a thing
// down for good: not a state ("not seeing errors"), nor a thing put off
// ("not pulling it in, maybe later", "not adding it yet", "not reopening
// Wise unless the bundle is cheap").
func turnsDown(verb, rest []byte) bool {
	return !notDoing.Has(verb) && !yetInClause(rest) && !containsAny(rest, "maybe", "unless", " if ") && !reUntilHeard.Match(rest)
}

// reUntilHeard waits for word from someone: "I'm not touching the rota
// until I've heard what Gill thinks", "… until the research office
// replies" puts it off, it turns nothing down.
var reUntilHeard = re(`\buntil (?:after )?(?:i|we)(?:'ve| have)? (?:heard|hear|talked|talk|spoken|speak|asked|ask|checked|check|run it past|ran it past|run this past)\b|\buntil (?:the |our |my )?(?:[a-z ]|'){1,30}? (?:replies|responds|gets back|confirms|signs off)\b`)

// leadEnd returns where sl starts past its interjections and conjunctions
// ("ok, so "), or 0.
func leadEnd(sl []byte) int {
	if loc := reLead.FindIndex(head(sl)); loc != nil {
		return loc[1]
	}
	return 0
}

// rejects reports a trigger whose verb removes its object: "scrap that",
// "we're dropping it".
func rejects(trigger []byte) bool { return rejectVerbs.Has(lastWord(trigger)) }

// firstWord is the first word of a phrase.
func firstWord(phrase []byte) []byte {
	w, _, _ := bytes.Cut(phrase, []byte(" "))
	return w
}

// lastWord is the last word of a trigger: its verb ("let's drop").
func lastWord(trigger []byte) []byte {
	t := bytes.TrimRight(trigger, " ")
	return t[bytes.LastIndexByte(t, ' ')+1:]
}

var rejectVerbs = set(`drop dropping scrap scrapping ditch ditching remove removing retire retiring
	deprecate deprecating sunset sunsetting skip skipping`)

// defers reports a trigger whose verb puts its object off: "let's shelve
// that", "we'll park it" (the verbs of reDeferVerb).
func defers(trigger []byte) bool { return reDeferVerb.Match(lastWord(trigger)) }

// reLaterFor is an anaphoric object kept for later or for no one: "that for
// the next release", "it for the record".
var reLaterFor = re(`^\s*(?:it|that|this)(?: one)?\s+for (?:the |a |our )?(?:next|record|moment|time being|later|future|another)\b`)

// labelDecides reports whether what follows a label states a decision:
// not nothing ("Decision: TBD", "Picked: nothing yet"), not a question
// ("Plan: ask the team?"), and after a label that also heads a result
// ("Chosen:", "Selected:", "Approved:") not a count ("Selected: 3 rows",
// "Chosen: 3 of 5 tests pass").
func labelDecides(label, rest []byte) bool {
	rest = bytes.TrimSpace(rest)
	if len(rest) == 0 || reEmptyLabel.Match(head(rest)) || isQuestion(rest) || reDeferred.Match(rest) {
		return false
	}
	if rest[0] >= '0' && rest[0] <= '9' {
		for i, j := nextWord(label, 0); i < j; i, j = nextWord(label, j) {
			if resultLabels.Has(bytes.Trim(label[i:j], "*_:")) {
				return false
			}
		}
	}
	return true
}

// resultLabels are the label words that also head a tool's or a test's
// output.
var resultLabels = set(`chosen selected picked winner approved`)

// tailAdds reports whether what follows "X it is" (lower case, from its
// punctuation on) adds to the choice: "…, and Redis for the cache", "…,
// but with two slots"; not a clause of its own ("…, but I still think
// Mongo was better", "…, and I'm off for the day").
func tailAdds(tail []byte) bool {
	tail = bytes.TrimLeft(tail, " ,;—–")
	i, j := nextWord(tail, 0)
	conj := tail[i:j]
	i, j = nextWord(tail, j)
	w := tail[i:j]
	if string(conj) == "but" {
		return amendVerbs.Has(w)
	}
	if string(conj) == "then" && len(w) == 0 {
		return false // "Kafka it is, then."
	}
	return !pronouns.Has(w) && !bytes.ContainsAny(w, "'’")
}

// conjoined reports a tail that goes on with "and", "with", "plus" or
// "but": what follows another comma is a clause of its own.
func conjoined(tail []byte) bool {
	tail = bytes.TrimLeft(tail, " ,;—–")
	i, j := nextWord(tail, 0)
	return tailConjunctions.Has(tail[i:j])
}

var tailConjunctions = set(`and with plus but`)

// noConsensus reports a "consensus is/was" that names no choice: someone
// else's ("their consensus was Kafka"), or a state ("the consensus was
// split", "consensus is hard"), one everyday word where a choice is a name.
func noConsensus(sl []byte, loc []int) bool {
	if !bytes.HasPrefix(sl[loc[0]:], []byte("consensus")) {
		return false
	}
	if p := bytes.TrimSuffix(bytes.TrimSuffix(sl[:loc[0]], []byte("the ")), []byte("our ")); len(p) > 0 && !onlyLead(p) &&
		!bytes.HasSuffix(p, []byte(" and ")) && !bytes.HasSuffix(p, []byte(", ")) {
		return true // "there's no consensus"; "we held a vote and consensus is X" decides
	}
	rest := bytes.Trim(sl[loc[1]:], " .!:")
	return len(rest) > 0 && bytes.IndexByte(rest, ' ') < 0 && everyday(string(rest))
}

// everydayUse reports a first-person "I'll use …" whose object is only
// everyday English that nobody mentioned before ("I'm going to use the
// bathroom"): life, not a choice among things under discussion. "I'll use
// Kafka" or "I'll use the map you suggested" still decide.
func (st *decisionState) everydayUse(sl []byte, loc []int) bool {
	// Only "use": "go with", "stick with", "switch to" choose whatever follows.
	if m := reUserI.FindSubmatchIndex(sl[loc[0]:loc[1]]); m == nil || string(sl[loc[0]+m[2]:loc[0]+m[3]]) != "use" {
		return false
	}
	obj := sl[loc[1]:]
	if i := bytes.IndexAny(obj, ",.;:!?()"); i >= 0 {
		obj = obj[:i]
	}
	content := 0
	for i, j := nextWord(obj, 0); i < j; i, j = nextWord(obj, j) {
		w := obj[i:j]
		if words.IsStopword(string(w)) {
			continue
		}
		if !everyday(string(w)) || st.said(w) {
			return false
		}
		content++
	}
	// Digits and symbols are no anchor bytes: "use v2" names a thing.
	return content > 0 && !bytes.ContainsAny(obj, "0123456789-_/.")
}

// musingItem reports an item that opens with a hedge or a hypothesis:
// "maybe restart", "if the budget allows, Kafka", "I wonder whether …".
// A bound later in it ("RabbitMQ until the rewrite ships") is still a
// decision.
func musingItem(sl []byte) bool {
	i, j := nextWord(sl, 0)
	if hedges.Has(sl[i:j]) {
		return true
	}
	first := sl
	if c := bytes.IndexAny(sl, ",;"); c > 0 {
		first = sl[:c] // "no zucchini this year, maybe next year" settles this year
	}
	if reTaskItem.Match(sl[i:]) || reOpenItem.Match(first) || yetInClause(sl) {
		return true // "I'll ask my dad …" is a task; "Shard count: not settled" is open
	}
	// "rollout stages: not sure 5/25/50/100 works", "timer: still arguing".
	if c := bytes.Index(head(sl), []byte(": ")); c > 0 && c < 30 {
		if musingItem(sl[c+2:]) {
			return true
		}
	}
	return bytes.HasPrefix(sl[i:], []byte("i wonder")) || bytes.HasPrefix(sl[i:], []byte("not sure")) ||
		bytes.HasPrefix(sl[i:], []byte("i'm not sure")) || bytes.HasPrefix(sl[i:], []byte("what if"))
}

// reTaskItem opens an item that is a task of the speaker's, not a decision.
var reTaskItem = re(`^i(?:'ll| will|'m going to| need to| have to) (?:ask|check|talk|look|see|find out|ping|email|call|write|think|read|try|figure)\b`)

var reservations = set(`but though although however unless except if`)

var hedges = set(`maybe perhaps possibly probably hopefully if whether suppose supposing assuming
	wondering unless`)

// doneVerbs open a change reported without its subject ("Went with Loki").
const doneVerbList = `went chose picked opted switched moved migrated settled stuck`

var doneVerbs = set(doneVerbList)

// letsObjects follow the verb "lets" ("lets us", "lets the user"), where
// "let's" would have a verb.
var letsObjects = set(`us me you them him her the a an people users everyone anyone someone`)

var pronouns = set(`i we you it this that they he she there these those what which who`)

// namesOption reports a reply whose first sentence refers to one of the
// proposal's options ("Let's go with option 2"): it takes that option, not
// necessarily the one recommended.
func namesOption(st *decisionState, pending *proposal) bool {
	if !pending.hasOptions() || len(st.sents) == 0 {
		return false
	}
	first := st.lower[st.sents[0].start:st.sents[0].end]
	if containsAny(first, "option ", "#", "first", "second", "third", "number ") {
		return true
	}
	for i, j := nextNumber(first, 0); i < j; i, j = nextNumber(first, j) {
		if _, ok := pending.option(string(first[i:j])); ok {
			return true
		}
	}
	// "ok go with C.": a lone letter that labels an option.
	for i, j := nextWord(first, 0); i < j; i, j = nextWord(first, j) {
		if j-i == 1 && first[i] != 'a' && first[i] != 'i' {
			if _, ok := pending.options[string(first[i:j])]; ok {
				return true
			}
		}
	}
	return false
}

// nextNumber returns the bounds of the first run of digits in b at or
// after from; i == j when there is none.
func nextNumber(b []byte, from int) (i, j int) {
	i = from
	for i < len(b) && (b[i] < '0' || b[i] > '9') {
		i++
	}
	j = i
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	return i, j
}

// pickOnly reports a sentence that is nothing but a pick among options by
// a label or an ordinal ("Going with C.", "the third one").
func pickOnly(sl []byte) bool {
	if len(sl) > 48 {
		return false
	}
	sl = sl[leadEnd(sl):]
	m := reOptionPick.FindSubmatchIndex(sl)
	// A bare number may be a quantity ("let's go with 8" shards), not an
	// option's label.
	return m != nil && m[1] == len(sl) && m[4] < 0 && m[8] < 0
}

// pickedOption returns the text of the option a reply sentence (after its
// interjection) names and nothing else, or "".
func pickedOption(sl []byte, p *proposal) string {
	if !p.hasOptions() {
		return ""
	}
	if i := bytes.IndexAny(sl, ",:"); i >= 0 {
		sl = sl[:i+1] // "5 - yes, can't believe we don't have it", "it's b: orange only for headings": the pick comes first
	}
	if len(sl) > 48 {
		return ""
	}
	start := leadEnd(sl)
	m := reOptionPick.FindSubmatchIndex(sl[start:])
	if m == nil {
		return ""
	}
	for g := 1; g <= 5; g++ {
		if m[2*g] < 0 {
			continue
		}
		key := string(sl[start+m[2*g] : start+m[2*g+1]])
		if g == 2 && len(p.items) == 0 && containsAny(sl, "obviously", "of course", "definitely", "clearly") {
			return "" // "2 of course" of options A and B is a quantity
		}
		if g == 3 {
			key = ordinals[key]
		}
		if o, ok := p.option(key); ok {
			return o
		}
		// "The second one" of options labelled A, B, C.
		if n, err := strconv.Atoi(key); err == nil && n >= 1 && n <= 26 {
			if o, ok := p.option(string(rune('a' + n - 1))); ok {
				return o
			}
		}
	}
	return ""
}

var ordinals = map[string]string{"first": "1", "second": "2", "third": "3", "fourth": "4", "1st": "1", "2nd": "2", "3rd": "3", "4th": "4"}

// optionKey is the label a reOptionRef match names, or "" without a match.
func optionKey(obj []byte, ref []int) string {
	if ref == nil {
		return ""
	}
	return string(obj[ref[2]:ref[3]])
}

// antecedent returns what the anaphoric object of sentence k points at: for
// "keep that", the statement just before it in the same paragraph
// ("Invoices round once on the total. We'll keep that."); otherwise the
// proposal the message answers.
func (e *Extractor) antecedent(text string, lower []byte, sents []sentence, k int, trigger []byte, pending *proposal, answering bool) (string, bool) {
	if k > 1 && sents[k-1].para == sents[k].para && sents[k-2].para == sents[k].para && reConfirmTag.Match(lower[sents[k-1].start:sents[k-1].end]) {
		// "keep $25 for those who can't pay more, $35 for the rest. that's
		// the sliding scale idea right? yes, let's do that": the speaker's
		// own check of the sentence before, which "that" points past.
		k--
	}
	if k > 0 && sents[k-1].para == sents[k].para {
		p := sents[k-1]
		pl := lower[p.start:p.end]
		// After the assistant's question the sentence before is an answer
		// to it ("Only user ids."), not the choice restated.
		// A yes before it is no state ("OK, the p99 numbers are
		// convincing."), unless it sums up ("ok so basically: keep $25 for
		// …").
		if !isQuestion(pl) && bytes.Count(bytes.TrimSpace(pl), []byte{' '}) >= 2 && (!reAcceptWeak.Match(head(pl)) || reSumsUp.Match(head(pl)) && summarises(pl)) &&
			(keepVerb(trigger) || !answering && summarises(pl)) {
			return cleanDecision(text[p.start:p.end], pl), true
		}
	}
	if pending != nil && pending.text != "" {
		return pending.text, true
	}
	return "", false
}

// decidedItem reports whether a sentence after an inline "decided: X." in
// the same paragraph is a further item of what was decided ("log RT.", "no
// brms, not for this chapter at least."): short, no question, hedge,
// thanks or task of the speaker's.
func decidedItem(sl []byte) bool {
	t := bytes.TrimSpace(sl)
	if len(t) < 3 || bytes.Count(t, []byte{' '}) > 12 || hedged(t) || reAcceptWeak.Match(head(t)) && bytes.Count(t, []byte{' '}) < 2 {
		return false
	}
	// "my boss will be thrilled", "the kids are asleep", "lol": news and
	// asides, not items.
	if reFiniteVerb.Match(t) || containsAny(t, " will ", "'ll ", " would ") || asides.Has(bytes.TrimRight(t, ".!")) {
		return false
	}
	return !bytes.HasPrefix(t, []byte("thank")) && !bytes.HasPrefix(t, []byte("i'll ")) && !bytes.HasPrefix(t, []byte("i will ")) && !bytes.HasPrefix(t, []byte("can you"))
}

// reDangling ends a text that only holds a clause's subject and its verb:
// what is left of "the stay-lean plan was mostly because we assumed …".
var reDangling = re(`(?i)\b(?:was|were|is|are) (?:mostly|mainly|partly|largely|just|really|actually|probably)$`)

// dangling reports a text left with a subject and its verb only (see
// reDangling), or ending on a bare "was", "were", "are" or "is" ("the
// stay-lean plan was", its hedge and reason gone); "SQS it is" and "Jest
// stays as is" are choices.
func dangling(dec string) bool {
	if reDangling.MatchString(dec) {
		return true
	}
	l := strings.ToLower(dec)
	for _, v := range []string{" was", " were", " are"} {
		if strings.HasSuffix(l, v) {
			return !reKeptAsIs.MatchString(l) // "We're keeping the boxes as they are" is whole
		}
	}
	return strings.HasSuffix(l, " is") && !strings.HasSuffix(l, " it is") && !strings.HasSuffix(l, " as is")
}

var reKeptAsIs = re(`\b` + asItIsPhrase + `$`)

// asides are a sentence's worth of laughter or feeling, no item.
var asides = set(`lol haha hah ha lmao rofl ugh yay phew wow nice cool great`)

// reSpelledAfter is "it" or "that", a colon, and what it is: "do it: 30%
// off under 50 units a week" (group 1).
var reSpelledAfter = re(`^\s*(?:it|that|this)\s*:\s*(\S.{8,})$`)

// reOnIt is a short instruction about "it" (the verb in group 1, what
// follows "it" in group 2): "Drop it.", "ok, keep it.", "no actually, make
// it mandatory."
var reOnIt = re(`^(?:(?:no|nope|ok|okay|so|then|yeah|yes|actually|and|but|just|fine|alright)[,.!]?\s+)*(drop|scrap|ditch|kill|remove|keep|make|move|cap|limit|rename|schedule|push|bump|split) it\b([^,;:?]{0,60}?)[.!]*$`)

// reOnItMake is what "make it" may make a thing a decision says: "make it
// mandatory", not "make it warmer", an edit asked of the assistant.
var reOnItMake = re(`^ (?:mandatory|optional|required|compulsory|the default|default|opt-in|opt-out|weekly|monthly|daily|biweekly|permanent|public|private|official)$`)

// onIt returns the decision a short instruction about "it" (reOnIt's verb,
// what follows "it", the instruction as written) makes of the paragraph's
// topic, or "": "Drop it." under "The mandatory checkpointing policy — …"
// is "Decided against: The mandatory checkpointing policy", "Keep it." the
// topic, "make it mandatory" under "Sync meeting — …" "Sync meeting: make it
// mandatory". "Keep it simple" and "keep it up" ask for a manner, "make it
// warmer" is an edit asked of the assistant, a bare "move it" says nothing.
func onIt(topic string, verb, rest []byte, said string) string {
	switch {
	case string(verb) == "keep":
		if len(rest) == 0 {
			return topic
		}
	case string(verb) == "make" && !reOnItMake.Match(rest):
	case len(rest) > 0:
		return topic + ": " + strings.TrimRight(said, ".! ")
	case rejectVerbs.Has(verb) || string(verb) == "kill":
		return decidedAgainst + topic
	}
	return ""
}

// reParaTopic is a paragraph opening with what it is about, set off by a
// dash or a colon: "The mandatory checkpointing policy — I can't enforce
// that", "Runbooks: our support team has no GitHub access".
var reParaTopic = re(`^((?:the |our |that |this )?[\pL0-9][\pL0-9 /_-]{2,50}?)\s*(?:—|–| - |:)\s`)

// notionLabels open a paragraph without naming what it is about ("Update:
// the survey came back").
var notionLabels = words.NewSetOf([]string{"update", "edit", "note", "ps", "context", "summary", "background",
	"status", "fyi", "question", "answer", "tldr", "recap", "plan", "decision", "news", "long story short",
	"quick update", "good news", "bad news", "side note", "fun fact", "btw", "anyway", "also", "so", "ok"})

// paraTopic returns what the paragraph of sentence k is about, when its
// first sentence, before k, opens with it set off by a dash or a colon:
// what "it" in a short instruction there ("Drop it.") points at.
func paraTopic(text string, lower []byte, sents []sentence, k int) string {
	s := sents[k]
	j := k
	for j > 0 && sents[j-1].para == s.para {
		j--
	}
	if j == k {
		return ""
	}
	f := sents[j]
	m := reParaTopic.FindSubmatchIndex(lower[f.start:f.end])
	if m == nil {
		return ""
	}
	t := lower[f.start+m[2] : f.start+m[3]]
	if first := firstWord(t); pronouns.Has(first) || leadWords.Has(first) || notionLabels.Has(t) || bytes.Count(t, []byte{' '}) > 5 || len(contentWords(string(t))) == 0 {
		return ""
	}
	return text[f.start+m[2] : f.start+m[3]]
}

// summarises reports whether a sentence before "we'll go with that" sums up
// what is taken ("So per-customer FIFO, backoff on the head, pause after 3
// days."): it names things itself, rather than thanking, agreeing or
// pointing elsewhere ("that makes sense", "it works").
func summarises(pl []byte) bool {
	rest := bytes.TrimSpace(pl[leadEnd(pl):])
	return bytes.Count(rest, []byte{' '}) >= 2 && !reAcceptStrong.Match(head(rest)) && !reAcceptWeak.Match(head(rest)) &&
		!reAnyAnaphor.Match(rest) && !bytes.HasPrefix(rest, []byte("thank"))
}

// findTrigger returns the span of the first direct decision phrase in the
// sentence, or nil.
func findTrigger(sl []byte, toks []anchorTok, role conversation.Role, replying bool) []int {
	if loc := reStartGo.FindIndex(head(sl)); loc != nil && (role == conversation.RoleUser || !bytes.Contains(sl[:loc[1]], []byte("go with"))) {
		return loc // the assistant's "Go with B" advises
	}
	if loc := findAtToks(reDirect, sl, toks, anchorDirect); loc != nil && !worryBefore(sl[:loc[0]]) {
		if t := sl[loc[0]:loc[1]]; (bytes.HasSuffix(t, []byte("went for")) || bytes.HasSuffix(t, []byte("gone for"))) && leisure(sl[loc[1]:]) ||
			bytes.HasSuffix(t, []byte("pick")) && pickUp(sl[loc[1]:]) {
			return nil // "I'll pick it up on Tuesday" fetches it
		}
		return loc[:2]
	}
	if role != conversation.RoleUser {
		return nil
	}
	// "we'll …" opens the decision, unless an earlier "let's do that" takes
	// what was said: in "let's do that, we'll put it on the form" the
	// "that" is what was decided ("let's just ship it, we'll fix the CSS
	// next week" decides the CSS).
	var first []int
	for _, r := range []*lazyRE{reUserWill, reUserLets} {
		if m := findAtToks(r, sl, toks, anchorUser); m != nil && (first == nil || m[0] < first[0] && letsTakeThat(sl[m[2]:])) && !worryBefore(sl[:m[0]]) {
			verb := sl[m[2]:m[3]]
			if pronouns.Has(verb) || letsObjects.Has(verb) {
				continue // "it lets us use either model": the verb "let", not "let's"
			}
			if talkAhead(verb, sl[m[3]:]) {
				continue // "we're going to sit down on Sunday": a talk to come
			}
			if !notCommitting.Has(verb) || string(verb) == "go" && (goesSomewhere(sl[m[3]:]) || r == reUserLets && goesNamed(sl[m[3]:])) ||
				string(verb) == "have" && determinerNext(sl[m[3]:]) || string(verb) == "take" && takesChoice(sl[m[3]:]) {
				first = m[:2]
			}
		}
	}
	if first != nil {
		return first
	}
	if m := findAtToks(reUserCommit, sl, toks, anchorCommit); m != nil && !relativeClause(sl[:m[0]]) && !(!replying && retires(sl[m[0]:m[1]])) &&
		!(bytes.HasSuffix(sl[m[0]:m[1]], []byte("replacing")) && !bytes.Contains(sl[m[1]:], []byte(" with "))) {
		// "We're replacing catalogue search for our shop" names what goes,
		// not what was chosen; "We're retiring our BIND servers" opening a
		// conversation is its context.
		return m[:2]
	}
	lead := 0 // where a reply's sentence starts past its "ok, so", for the reply forms below
	if replying {
		// "I take the München–Venezia route", "I change the chainring to
		// 38": a choice in the present, as a non-native writer says "I'll".
		if m := findAtToks(rePresentI, sl, toks, anchorCommit); m != nil {
			return m[:2]
		}
		// "Keeping all 5 as buffer.": the change under way, its subject
		// left out, opening the sentence.
		lead = leadEnd(sl)
		if m := reGerundStart.FindIndex(head(sl[lead:])); m != nil && !reGerundSubject.Match(sl[lead+m[1]:]) && !onHold(sl[lead+m[1]:]) {
			return []int{lead, lead + m[1]}
		}
	}
	if replying {
		if m := findAtToks(reUserShould, sl, toks, anchorCommit); m != nil && !bytes.Contains(sl[m[1]:], []byte(" but ")) {
			return m[:2]
		}
	}
	if m := findAtToks(reUserPresent, sl, toks, anchorCommit); m != nil && m[0] > 0 && (acceptingLead(sl[:m[0]]) || concludes(sl[:m[0]])) && !stateAfter(sl[m[1]:]) {
		return m[:2]
	}
	if m := findAtToks(reUserI, sl, toks, anchorCommit); m != nil {
		// "I'll do" settles only what "that" points at: "I'll do that".
		// "I'll keep that in mind" is an idiom, as in the imperative.
		if string(sl[m[2]:m[3]]) != "do" && !reNotImperative.Match(head(sl[m[2]:])) || string(sl[m[2]:m[3]]) == "do" && reAnaphor.Match(head(sl[m[1]:])) {
			return m[:2]
		}
	}
	if containsAny(head(sl), " set ", " fixed ", " locked ", " confirmed ", " finalised ", " finalized ") {
		if m := reSetThe.FindIndex(head(sl)); m != nil {
			return m // "Leadership has set the dates as …": settled before the conversation
		}
	}
	if containsAny(sl, "settled", "decided", "final", "non-negotiable") {
		if m := reThatSettled.FindIndex(sl); m != nil {
			return []int{0, 0} // "£1,000 goes on a holiday; that's settled": the clause before
		}
	}
	if m := findAtToks(reUserDone, sl, toks, anchorDone); m != nil && (m[0] == 0 || hasSubject(sl[m[0]:]) || onlyLead(sl[:m[0]]) || reGroupFirst.Match(sl[:m[0]])) {
		// Without its subject ("Went with Loki") only as the sentence's
		// start: "the team moved to a new office" and "they went with Loki"
		// are news, not a choice.
		return m[:2]
	}
	if containsAny(head(sl), " booked", " ordered", " reserved", " bought", " purchased", " paid for") {
		if m := reDoneState.FindSubmatchIndex(head(sl)); m != nil && !notDoneSubjects.Has(firstWord(sl[m[2]:m[3]])) {
			return []int{0, 0} // the whole sentence: what is booked, and what with
		}
	}
	if m := findAtToks(reUserWont, sl, toks, anchorCommit); m != nil {
		if verb := sl[m[2]:m[3]]; string(verb) == "go" && bytes.HasPrefix(sl[m[3]:], []byte(" with")) {
			return []int{m[0], m[1] + len(" with")}
		} else if !notCommitting.Has(verb) && !notDeciding.Has(verb) &&
			(!bytes.HasSuffix(sl[:m[2]], []byte(" be ")) || bytes.HasSuffix(verb, []byte("ing"))) {
			// After "be" only a verb decides ("we won't be using Kafka"):
			// "I won't be here tomorrow" is news.
			return m[:2]
		}
	}
	if bytes.Contains(head(sl), []byte("no ")) {
		if m := reUserNo.FindSubmatchIndex(head(sl)); m != nil {
			thing := sl[m[2]:m[3]]
			if !notRuledOut.Has(firstWord(thing)) && !notRuledOut.Has(lastWord(thing)) { // "no hard feelings, then"
				return []int{0, 0} // the whole sentence is what is ruled out
			}
		}
	}
	if replying && bytes.HasSuffix(bytes.TrimRight(sl, ".! "), []byte(" then")) {
		if m := reThenChoice.FindSubmatchIndex(sl); m != nil && namesThing(sl[m[2]:m[3]]) {
			return []int{0, 0}
		}
	}
	if replying && imperativeVerbNear(sl) {
		if loc := reImperative.FindSubmatchIndex(head(sl)); loc != nil && !reNotImperative.Match(head(sl[loc[2]:])) && !bareSkip(sl[loc[2]:]) {
			return loc[:2]
		}
	}
	if replying && bytes.IndexByte(sl, ',') > 0 {
		// "Headers yes, sure, go ahead with both", "I hear you, but drop
		// the brownout idea": the instruction starts mid-sentence, after a
		// yes or a "but"; what is before it is another clause.
		if loc := reMidImperative.FindSubmatchIndex(sl); loc != nil && !reNotImperative.Match(head(sl[loc[2]:])) {
			return loc[2:4]
		}
	}
	if replying {
		// "Yes, put 15% aside as contingency": after a yes, an instruction
		// with any of these verbs settles what was weighed.
		if lead > 0 && acceptingLead(sl[:lead]) {
			if m := reYesImperative.FindIndex(head(sl[lead:])); m != nil {
				return []int{lead, lead + m[1]}
			}
			// "ok, upgrading to 1.9 first then", "ok doing that": the change
			// under way.
			// "done arguing about it lol" is finished with it: "done" with
			// no stop before the verb.
			if i, j := nextWord(sl, lead); i == lead && underWay(sl[i:j]) && !bytes.HasSuffix(bytes.TrimRight(sl[:lead], " "), []byte("done")) {
				return []int{i, j}
			}
		}
		// "don't rate limit /healthz": an instruction against.
		if m := reDont.FindSubmatchIndex(head(sl)); m != nil && !dontIdioms.Has(sl[m[2]:m[3]]) && !bytes.HasSuffix(sl[m[2]:m[3]], []byte("ed")) && !yetInClause(sl[m[1]:]) {
			// "never liked them" reports; "never log bodies" instructs.
			// "Don't write files yet" paces the work; it settles nothing.
			return []int{0, 0}
		}
		if m := findAtToks(reUserNotDoing, sl, toks, anchorCommit); m != nil && !purpose(sl[:m[0]]) &&
			!(m[0] > len("and ") && bytes.HasSuffix(sl[:m[0]], []byte("and "))) && turnsDown(sl[m[2]:m[3]], sl[m[1]:]) {
			// "…, and I'm not touching that in this PR" argues for what came
			// before; "…, so I'm not ripping on sawhorses" gives a purpose.
			return m[:2]
		}
		// "not doing vector. team doesnt want to learn VRL": the same
		// with its subject left out, opening the sentence.
		if m := matchAt(reNotDoingStart, sl, lead); m != nil && turnsDown(sl[m[2]:m[3]], sl[m[1]:]) {
			if i, j := nextWord(sl, m[1]); i < j && !deictic(sl[i:j]) {
				return m[:2] // "not doing that": no antecedent to take
			}
		}
	}

	if containsAny(head(sl), "forward", "now on", "here on") {
		if loc := reUserRule.FindIndex(head(sl)); loc != nil {
			return loc
		}
	}
	if replying && containsAny(sl, " will be ", " was ", " were ", " has been ") {
		// "the v1 orders endpoint will be removed in June", "pnpm was chosen
		// at the guild meeting": the passive, no one named deciding.
		if m := rePassiveDecision.FindIndex(sl); m != nil && !reTentative.Match(sl[:m[1]]) {
			return []int{0, 0}
		}
	}
	if i := bytes.Index(sl, []byte(", so from now on ")); i > 0 {
		// "…, so from now on every cache key carries a version prefix": the
		// rule is the clause after it.
		return []int{i + len(", so "), i + len(", so from now on ")}
	}
	if ruleAtEnd(sl) {
		return []int{0, 0} // the whole sentence is the rule
	}
	if containsAny(sl, " going to be ", " will be ", " gonna be ") {
		// "the v1 model is going to be the logistic regression": the value
		// of a thing that is chosen, set in the future tense.
		if m := findAtToks(reUserWillBe, sl, toks, anchorPlan); m != nil && !judgement(sl[m[1]:]) {
			return m[:2]
		}
	}
	if containsAny(sl, "plan is", "call is", "choice is", "pick is", "answer is") {
		if m := findAtToks(reUserPlan, sl, toks, anchorPlan); m != nil {
			return m[:2]
		}
	}
	// Tried at each "is" and "are": their prefilter refuses most at once.
	if m := findAtToks(reUserVerdict, sl, toks, anchorVerdict); m != nil && !hearsay(sl[:m[0]], sl[m[1]:]) {
		return m[:2]
	}
	return nil
}

// trigger is findTrigger, and the user's forms that need their context:
// in a reply, a change or order under way, the assistant's proposal taken
// ("I'm taking your …"), a thing bumped to an amount, an option turned
// down ("we're not using Glacier"), each on what the assistant spoke of; a
// group's agreement ("did agree … that"), a proposal put to the body that
// decides, a price settled; and "I'll" with a verb that findTrigger leaves
// to its context: any verb but a task's when the sentence says what it is
// chosen over ("I'll get the 80 CFM model rather than a separate switch"),
// and in a reply a verb that carries out a plan in mostly the assistant's
// words ("I'll run Tbp, Rplp0 and Ppia on all 48 samples" after it named
// those genes).
func (st *decisionState) trigger(sl []byte, role conversation.Role) []int {
	toks := st.anchorToks(sl)
	if loc := findTrigger(sl, toks, role, st.replying); loc != nil {
		return loc
	}
	if !st.user {
		return nil
	}
	if st.replying {
		// A change of course or an order under way, on what the assistant
		// spoke of: "so I'm widening the window to five days", "I'm filing
		// the internal appeal anyway" ("I'm ordering pizza tonight" is not).
		if m := findAtToks(reUserChange, sl, toks, anchorCommit); m != nil && st.saidAny(head(sl[m[1]:])) {
			return m[:2]
		}
		// The assistant's proposal taken as it stands: "I'm taking your km
		// 22 and km 41 cut-offs exactly as they are" (not "your advice",
		// whose object is elsewhere).
		if m := findAtToks(reTakingYour, sl, toks, anchorCommit); m != nil && st.takesProposal(sl, m) {
			return m[:2]
		}
		if m := findAtToks(reUserBump, sl, toks, anchorCommit); m != nil && st.saidAny(sl[m[2]:m[3]]) {
			return m[:2]
		}
		if m := findAtToks(reUserNotUsing, sl, toks, anchorCommit); m != nil && st.turnsDownOption(sl, m) {
			return m[:2]
		}
	}
	if bytes.Contains(sl, []byte("did agree")) { // the pattern is not anchored: no prefilter
		if loc := reDidAgree.FindIndex(sl); loc != nil {
			return loc
		}
	}
	// What the user will put to the body that decides, in so many words:
	// "I'll take off and away all day to the governors as the main
	// recommendation" (not "I'll take it to the committee").
	if m := reToTheBoard.FindSubmatchIndex(sl); m != nil && !bytes.HasSuffix(bytes.TrimRight(sl, " "), []byte("?")) {
		obj, after := sl[m[2]:m[3]], sl[m[1]:]
		if !reAnyAnaphor.Match(obj) && !reTentative.Match(sl) && st.saidAny(obj) && !anyWord(obj, notProposals) &&
			!reBoardAfter.Match(after) && !containsAny(after, "my guess", "i guess", "i expect", "i suspect", "i think", "we'll see", "fingers crossed") {
			// "…; my guess is the first sails through" leaves it to them.
			return m[:2]
		}
	}
	// A price settled in the first person: "I'll quote them $5,800",
	// "I'll counter at £1,725"; not one still weighed ("$900, or maybe
	// $1,000").
	if m := findAtToks(reUserPrice, sl, toks, anchorCommit); m != nil && !reOtherPrice.Match(sl[m[1]:]) {
		return m[:2]
	}
	m := findAtToks(reUserIOver, sl, toks, anchorCommit)
	if m == nil {
		return nil
	}
	verb, rest := sl[m[2]:m[3]], sl[m[1]:]
	if !taskVerbs.Has(verb) && reChosenOver.Match(rest) || st.replying && planVerbs.Has(verb) && st.mostlySaid(rest, 3) {
		return m[:2]
	}
	return nil
}

// reUserChange is a change of course or an order under way, in the
// progressive (see trigger).
var reUserChange = re(`^(?:we|i)(?:'re| are|'m| am) (?:changing|widening|narrowing|extending|shortening|raising|lowering|increasing|reducing|doubling|halving|capping|offering|filing|fitting|booking|ordering|hiring|scrapping|ditching)\b`)

// reUserBump is "bumping" or "upping" a thing (group 1) to an amount: "I'm
// bumping my contribution to 4%" ("I'm bumping into the same error" is not).
// It stands beside reUserCommit's "raising … to 4%" because the thing must
// be one the assistant spoke of (see trigger): folded into that form, "I'm
// bumping it to 4%" was taken, a decision that names nothing.
var reUserBump = re(`^(?:we|i)(?:'re| are|'m| am) (?:bumping|upping) (?:up )?((?:(?:the|our|my|its) )?[a-z0-9./_()-]+(?: [a-z0-9./_()-]+){0,3}?) to [$£€]?[0-9]`)

// reTakingYour takes the assistant's proposal (see trigger).
var reTakingYour = re(`^(?:we|i)(?:'re| are|'m| am) (?:taking|using|adopting) your\b`)

// takesProposal reports whether reTakingYour's match m in sl takes the
// assistant's proposal as it stands: a thing it spoke of, ending its clause
// ("I'm taking your km 22 and km 41 cut-offs, 11:45 and 15:30"), not taken
// somewhere or taken some way ("I'm taking your car to the garage", "…
// your comment personally"), nor still undecided.
func (st *decisionState) takesProposal(sl []byte, m []int) bool {
	obj := bytes.TrimLeft(sl[m[1]:], " ")
	if i := bytes.IndexAny(obj, ",;.!:"); i >= 0 {
		obj = obj[:i]
	}
	if j := bytes.Index(obj, []byte(" exactly as ")); j >= 0 {
		obj = obj[:j]
	}
	return !vagueObjects.Has(firstWord(obj)) && st.saidAny(obj) && !reTentative.Match(sl) &&
		!containsAny(obj, " to ", " home", " personally", " seriously", " with a ", " into ", " for a ", " apart") &&
		!containsAny(sl, "haven't decided", "not decided", "not sure", "undecided")
}

// vagueObjects name a proposal without saying what it is.
var vagueObjects = set(`advice point word suggestion suggestions recommendation recommendations idea ideas lead time input help`)

// reToTheBoard is a proposal the user will put to the body that decides
// (group 1, what is put): the choice is theirs to make and they have made
// it.
var reToTheBoard = re(`^(?:(?:so|and|ok|okay|right)[,.]?\s+)?(?:i|we)(?:'ll| will|'m going to|'re going to| am going to| are going to) (?:take|bring|put|propose|recommend) ([a-z0-9£$€"][^,;:]{2,80}?) to (?:the |our |my )?` + bodies + `\b`)

// notProposals put to a board are no choice made: "both options", "a
// question", "a complaint", "the kids".
var notProposals = set(`options both question questions complaint complaints kids children you him her them me`)

// reBoardAfter follows a body that is a place or someone's ("the council
// meeting", "the board's annoyance"), or leaves the choice to it ("… and let
// them choose", "… if they ask").
var reBoardAfter = re(`^(?:'s|s'| meeting| meetings| room| lounge| office| and let| (?:and|so) (?:we'll|they'll|we|they|we can|they can) (?:thrash|hash|talk|argue|discuss|decide|thresh)| to decide| to choose| if | for (?:a|their) (?:decision|vote|view))`)

// bodies decide what a user proposes to them.
const bodies = `(?:governors|governing body|board|committee|council|trustees|management team|leadership team|members|partners|steering group|parish council|school board|exec team|executive team|directors)`

// agreedWhen is when a group agreed: "agreed last week that …".
const agreedWhen = `(?:(?:last|this|on) (?:week|month|year|morning|afternoon|evening|night|quarter|term|sprint|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|yesterday|today|earlier|in the end)`

// reDidAgree is a group's agreement reported with "did": "the leadership
// team did agree this morning that …".
var reDidAgree = re(`\bdid agree(?: ` + agreedWhen + `)? (?:to|on|that)\b`)

// reUserNotUsing turns down an option in the progressive (see trigger).
var reUserNotUsing = re(`^(?:we|i)(?:'re| are|'m| am) not (?:using|going with|going for)\b`)

// turnsDownOption reports whether m, reUserNotUsing's match in sl, turns down an
// option the assistant named ("we're not using Glacier"), rather than say
// how things are: an answer to a question on the facts ("Do you use
// Postgres anywhere?" "No, we're not using Postgres anywhere"), an object
// that names nothing ("any cache", "our licences"), a state ("… for
// anything else", "… yet", "…, we're using MySQL already"), a condition
// ("… unless the client pays") or someone's belief ("I thought we're not
// using Glacier").
func (st *decisionState) turnsDownOption(sl []byte, m []int) bool {
	rest := sl[m[1]:]
	return !st.askedFact && !notNamed.Has(firstWord(bytes.TrimLeft(rest, " "))) &&
		!containsAny(rest, " for anything", " yet", " right now", " currently", " at the moment", " so far",
			" anywhere", " unless ", " already", " much", " we're using", " we use", " i'm using", " i use") &&
		!containsAny(sl[:m[0]], "think", "thought", "know", "knew", "remember", "believe", "assume", "guess", "if ") &&
		st.saidAny(head(rest))
}

// notNamed opens an object that names no option: "we're not using any
// cache right now", "we're not using our licences".
var notNamed = set(`any anything much many enough it that this them those these either a an
	my our your his her their its`)

// reOtherPrice is a second amount weighed after a price: "…, or maybe
// $1,000".
var reOtherPrice = re(` or (?:maybe |perhaps |even )?(?:[$£€][0-9]|[0-9][0-9,.]*\s*(?:k|dollars|pounds|euros)\b)`)

// reUserPrice is a price the user settles on: a quote, a counter-offer or
// a bid, with its amount.
var reUserPrice = re(`^i(?:'ll| will|'m going to| am going to) (?:quote|counter|offer|bid)(?: (?:them|him|her|the [a-z]+))?(?: at| with)? [$£€][0-9]`)

// reChosenOver says what a choice is preferred to, or closes it as a
// conclusion: "rather than …", "instead of …", "… instead", "…, then".
var reChosenOver = re(`(?: rather than | instead of | instead\s*(?:[,;.!]|$)|, then\s*(?:[:,;.!]|$))`)

// hearsay reports a verdict that is someone else's or only holds
// elsewhere: "everyone says the rewrite is a no brainer", "i used to think
// SQS is the way to go", "… is a no brainer for google, maybe not for us".
func hearsay(before, after []byte) bool {
	if containsAny(before, "says", "said", "think", "thought", "used to", "for most", "for some", "in general", "people") ||
		containsAny(after, " but ", "maybe", "unless") {
		return true
	}
	if i := bytes.Index(after, []byte(" for ")); i >= 0 {
		w := firstWord(after[i+len(" for "):])
		return !ownWords.Has(bytes.TrimRight(w, ",.!;"))
	}
	return false
}

// ownWords name the speaker's side: "the way to go for us".
var ownWords = set(`us me our my this the now`)

// ruleAtEnd reports a rule stated with its "from now on" last ("Order
// events go to Kafka from now on."), when it names what it is about: "I'll
// do that from now on" says nothing on its own.
func ruleAtEnd(sl []byte) bool {
	t := bytes.TrimRight(sl, " \t.!")
	for _, end := range []string{" from now on", " going forward", " from here on"} {
		if bytes.HasSuffix(t, []byte(end)) {
			return !reAnyAnaphor.Match(t)
		}
	}
	return false
}

// labelAt matches reLabel at the start of a line: only where one of its
// words is near, so that most sentences skip the expression.
func labelAt(sl []byte, lineStart bool) []int {
	if !lineStart {
		return nil
	}
	h := head(sl)
	// The label word comes within the pattern's first 60 bytes: one pass over
	// those words spares most lines the expression.
	w := h[:min(len(h), 60)]
	for i, j := nextWord(w, 0); i < j; i, j = nextWord(w, j) {
		if labelWords.Has(bytes.TrimRight(w[i:j], ":")) {
			loc := reLabel.FindIndex(h)
			if loc != nil && reservedLabel(h[loc[1]:]) {
				return nil // "Agreed — but honestly I'm not sure", "Agreed — but hold off until Monday"
			}
			return loc
		}
	}
	return nil
}

// reservedLabel reports what follows a label such as "Agreed —" that takes
// nothing: a doubt, a put-off or a check first ("but honestly I'm not
// sure", "but hold off until Monday", "but not yet", "but we need to check
// with finance first", "but don't tell the choir yet").
func reservedLabel(body []byte) bool {
	return hedgedRest(body) || containsAny(body, "honestly", "hold off", "not yet", "not until", "wait until", "wait for", " first", "don't tell", "do not tell")
}

// labelWords are the words of reLabel's labels; a two-word label is found
// by its first word ("final call", "locked in"), as its second ("in",
// "call") is too common to spare many lines the expression.
var labelWords = set(`decision decided resolution agreed conclusion outcome verdict final
	consensus resolved settled chosen selected picked winner approved locked decisions my our`)

// imperativeVerbs are the first words of reImperative's verbs, and of the
// other instructions a decision may open with ("start with", "skip").
var imperativeVerbs = set(imperativeVerbList)

const imperativeVerbList = `use go pick choose switch stick stay keep drop scrap ditch adopt move migrate standardise standardize
	start skip rip leave`

// imperativeVerbNear reports whether one of the first three words of sl is an
// imperative verb: most sentences are spared reImperative.
func imperativeVerbNear(sl []byte) bool {
	rest := sl
	for range 3 {
		rest = bytes.TrimLeft(rest, " \t,.!:;")
		w := rest
		if i := bytes.IndexAny(rest, " \t,.!:;"); i >= 0 {
			w, rest = rest[:i], rest[i:]
		} else {
			rest = nil
		}
		if imperativeVerbs.Has(w) {
			return true
		}
		if len(rest) == 0 {
			return false
		}
	}
	return false
}

// ruledOutWord reports whether sl holds the words a thing is ruled out
// with, where the pattern can end: "out" before punctuation, "then", "on
// cost"; "off the table", "off for now"; "a no", "a no-go", "not an option".
// Most sentences hold "out" or "off" only in "find out", "out of", "turn
// off", and are spared the pattern.
func ruledOutWord(sl []byte) bool {
	if containsAny(sl, " not an option", "n't an option", " off the table", " off the list", " off for now", " out of scope", " not happening", "n't happening", " a non-starter") {
		return true
	}
	for _, w := range []string{" out", " a no", " a hard no"} {
		for i := 0; ; {
			j := bytes.Index(sl[i:], []byte(w))
			if j < 0 {
				break
			}
			k := i + j + len(w)
			if k == len(sl) || !wordByte(sl[k]) && sl[k] != ' ' || sl[k] == '-' ||
				sl[k] == ' ' && (bytes.HasPrefix(sl[k:], []byte(" —")) || bytes.HasPrefix(sl[k:], []byte(" –")) || bytes.HasPrefix(sl[k:], []byte(" - ")) ||
					containsAny(head(sl[k:]), " then", " too", " now", " as well", " for now", " anyway", " regardless", " on cost", " on price", " on budget", " on licen", " as a", " as the", " for us", " for me", " for this", " for the", " for our")) {
				return true
			}
			i = k
		}
	}
	return false
}

// ruledOut returns the clause of sl that rules a thing out ("Keycloak is
// out", "so cross-region copies are off the table"), or nil.
func ruledOut(sl []byte) []int {
	if !ruledOutWord(sl) {
		return nil
	}
	// Each clause, last first: "Algolia's out — we got a quote".
	for end := len(sl); ; {
		from := clauseStart(sl[:end])
		at := from
		for at < len(sl) && sl[at] == ' ' {
			at++
		}
		// "orm — prisma is out": the clause after a dash starts past it.
		for _, dash := range [...]string{"— ", "– "} {
			if bytes.HasPrefix(sl[at:], []byte(dash)) {
				at += len(dash)
			}
		}
		if loc := reRuledOut.FindSubmatchIndex(sl[at:]); loc != nil {
			first := firstWord(sl[at+loc[2] : at+loc[3]])
			pred := sl[at+loc[3] : at+loc[1]]
			if pronouns.Has(first) || notRuledOutSubjects.Has(first) && !(string(first) == "the" && containsAny(pred, "table", "list", "scope")) || reAwayFor.Match(pred) {
				// "that's out of scope", "it's out": nothing named; "the new
				// version is out" is news, "the plated one is off the table"
				// is not.
				return nil
			}
			if loc[4] >= 0 {
				return []int{at + loc[2], at + loc[4]} // "Run:ai is out on cost alone": the reason follows
			}
			return []int{at + loc[2], at + loc[1]}
		}
		if from == 0 {
			return nil
		}
		end = from - 1 // before the comma, or the space before the dash
	}
}

// reAwayFor is someone away, not a thing ruled out: "Priya is out for the
// week".
var reAwayFor = re(`\bout for (?:the|this|a|our) (?:day|days|week|weeks|month|morning|afternoon|evening|night|weekend|holidays?|summer|winter|year|rest)\b`)

// planVerbs carry out a plan: "I'll run …", "I'll set …". Others after
// "I'll" mostly prepare one ("I'll get quotes", "I'll draft a brief").
var planVerbs = set(`run set make put send pay move split add remove drop replace register
	install enable disable apply cut raise lower increase reduce cap limit start stop adopt implement
	change rename merge migrate ship deploy schedule`)

// taskVerbs after "I'll" find something out or pass it on: "I'll ask
// legal rather than guess" is a task, whatever it is preferred to.
var taskVerbs = set(`ask check look see find think talk speak email mail call phone ping message text
	ring let report confirm investigate dig review read mention tell follow chase figure
	sleep have need be`)

var notRuledOutSubjects = set(`time money everyone everybody nobody someone power service
	the`)

// isRecapLine reports a user's line that announces a summary of what was
// settled ("So to recap:"), whose items follow as the plan's do.
func isRecapLine(sl []byte) bool {
	if !bytes.HasSuffix(bytes.TrimRight(sl, " \t*_"), []byte(":")) {
		return false // "Recap" alone is no announcement
	}
	t, ok := announcement(sl)
	return ok && recapLines.Has(t)
}

var recapLines = words.NewSetOf([]string{"to recap", "recap", "to summarise", "to summarize", "in summary",
	"summary", "to sum up", "so to recap", "what we agreed", "what we decided", "agreed", "decided"})

// determinerNext reports "let's have" followed by what is to do something
// ("let's have the workers pull from SQS"), not "let's have a look".
func determinerNext(rest []byte) bool {
	i, j := nextWord(rest, 0)
	return haveObjects.Has(rest[i:j])
}

// underWay reports a word that names a change under way: "upgrading",
// "moving"; not a state ("seeing"), a musing ("wondering") nor a noun that
// ends like one ("nothing", "morning").
func underWay(w []byte) bool {
	return len(w) > 4 && bytes.HasSuffix(w, []byte("ing")) && !bytes.HasSuffix(w, []byte("thing")) &&
		!notDoing.Has(w) && !musingVerbs.Has(w) && !ingNouns.Has(w)
}

// ingNouns end in "ing" and are no verb: "…, and morning standups stay".
var ingNouns = set(`morning evening spring string ceiling meeting during clothing`)

// musingVerbs are gerunds after a yes that think rather than act: "ok,
// wondering whether …".
var musingVerbs = set(`wondering checking reading guessing assuming waiting hoping considering
	leaning planning debating weighing hesitating struggling`)

// notDoing are the verbs of "we're not …ing" that report a state, not a
// choice: "we're not seeing errors", "I'm not getting it".
var notDoing = set(`seeing getting having hearing finding noticing experiencing running going using
	sure talking asking saying thinking trying expecting looking being feeling making hitting`)

var haveObjects = set(`the our all every each both`)

// talkAhead reports a meeting to talk it over: "sit down", "meet up", "meet
// with …", "meet to discuss" ("we'll meet the 10% target" commits).
func talkAhead(verb, rest []byte) bool {
	next := firstWord(bytes.TrimLeft(rest, " "))
	switch string(verb) {
	case "sit":
		return string(next) == "down"
	case "meet":
		return string(next) == "up" || string(next) == "with" || string(next) == "to"
	case "hash", "thrash", "thresh":
		// "we'll thrash it out there"; "we'll hash passwords with argon2"
		// settles how.
		return outAfter(rest)
	}
	return false
}

// pickUp reports a rest after "pick" that makes it "pick up": "up", "it
// up", "them up".
func pickUp(rest []byte) bool {
	i, j := nextWord(rest, 0)
	if string(rest[i:j]) == "up" {
		return true
	}
	// "it up", "them up", "the scanner up".
	for n := 0; n < 4 && i < j; n++ {
		i, j = nextWord(rest, j)
		if string(rest[i:j]) == "up" {
			return true
		}
	}
	return false
}

// outAfter reports a rest that goes on "it out", "this out", "things out".
func outAfter(rest []byte) bool {
	i, j := nextWord(rest, 0)
	k, l := nextWord(rest, j)
	switch string(rest[i:j]) {
	case "it", "this", "that", "things", "the", "details":
		return string(rest[k:l]) == "out" || string(rest[i:j]) == "the" && bytes.HasPrefix(bytes.TrimLeft(rest[l:], " "), []byte("out"))
	}
	return false
}

// takesChoice reports "we'll take" followed by one of the things weighed
// ("we'll take the managed option"), not "take a look" or "take the
// weekend".
func takesChoice(rest []byte) bool {
	i, j := nextWord(rest, 0)
	switch string(rest[i:j]) {
	case "option":
		return true
	case "the":
		k, l := nextWord(rest, j)
		return !notTaken.Has(rest[k:l])
	}
	return false
}

var notTaken = set(`look time opportunity rest lead weekend day week chance risk hint point day's
	long short`)

// acceptingLead reports a prefix that is only an interjection and holds a
// word that settles ("OK, so we're using Vault"); "So we keep getting
// timeouts" is a report.
func acceptingLead(prefix []byte) bool {
	if !onlyLead(prefix) {
		return false
	}
	for i, j := nextWord(prefix, 0); i < j; i, j = nextWord(prefix, j) {
		if settlingLeads.Has(prefix[i:j]) {
			return true
		}
	}
	return false
}

var settlingLeads = set(`ok okay alright fine great perfect then done agreed right yes yeah yep sure`)

// stateAfter reports a present tense that describes rather than chooses:
// "we're doing fine", "we keep getting timeouts".
func stateAfter(rest []byte) bool {
	i, j := nextWord(rest, 0)
	w := rest[i:j]
	return bytes.HasSuffix(w, []byte("ing")) || stateWords.Has(w)
}

var stateWords = set(`fine well ok okay good great better worse badly alright a lot lots
	everything nothing something it that this`)

// leisure are the objects of "we went for" that are no choice ("we went for
// a walk").
func leisure(rest []byte) bool {
	i, j := nextWord(rest, 0)
	if string(rest[i:j]) == "a" || string(rest[i:j]) == "an" {
		i, j = nextWord(rest, j)
	}
	return leisureWords.Has(rest[i:j])
}

var leisureWords = set(`walk run drink coffee lunch dinner breakfast beer swim hike ride drive
	pizza tea beers drinks meal`)

// namesThing reports whether a reply's "X, then." names a thing taken: no
// person or pointer in it ("see you tomorrow, then", "that, then") and more
// than an interjection ("ok then", "right then").
func namesThing(x []byte) bool {
	for i, j := nextWord(x, 0); i < j; i, j = nextWord(x, j) {
		if pronouns.Has(x[i:j]) || thenNotThing.Has(x[i:j]) {
			return false
		}
	}
	return true
}

// thenNotThing are, besides the pronouns, the words of an "X, then." that
// names nothing taken.
var thenNotThing = set(`me us him her them ok okay fine right alright good great sure yes yeah no bye thanks see talk speak and or but so if
	enough mind well cheers later yet not never oh fair night morning`)

// notDoneSubjects open a subject that reDoneState must not take: a word
// that makes the clause depend on another ("once the barn is booked, …")
// or says nothing is ("Nothing is booked", "None of it is booked").
var notDoneSubjects = set(`once when whenever after before if until unless whether as because since though although while till
	nothing none no not neither nobody`)

// retires reports a trigger that names only what goes away.
func retires(trigger []byte) bool {
	return containsAny(trigger, "retiring", "removing", "deprecating", "sunsetting", "replacing")
}

// goesSomewhere reports a "we'll go" that moves to a new state ("go to 100
// %", "go live"), not one that reviews ("go through", "go over").
func goesSomewhere(rest []byte) bool {
	return bytes.HasPrefix(rest, []byte(" to ")) || bytes.HasPrefix(rest, []byte(" live")) || bytes.HasPrefix(rest, []byte(" for "))
}

// itIs returns the choice a user's "X it is." names, or nil.
func itIs(sl []byte) []int {
	i := bytes.Index(sl, []byte(" it is"))
	if i < 0 {
		return nil
	}
	// The choice opens the sentence or the clause that holds it: "Talked
	// to my partner: alright, stock shaker it is, the …".
	from := choiceClause(sl[:i])
	for from < i && sl[from] == ' ' {
		from++
	}
	if i-from > 60 {
		return nil
	}
	m := reItIs.FindSubmatchIndex(sl[from:])
	if m == nil {
		return nil
	}
	for k := range m {
		if m[k] >= 0 {
			m[k] += from
		}
	}
	first := firstWord(sl[m[2]:m[3]])
	if last := sl[bytes.LastIndexByte(sl[m[2]:m[3]], ' ')+1+m[2] : m[3]]; asItIs.Has(last) {
		return nil // "auth stays as it is", "it is what it is"
	}
	if pronouns.Has(first) || len(contentWords(string(sl[m[2]:m[3]]))) == 0 {
		return nil // "that it is", "so be it": no choice named ("me query it is" names one)
	}
	if containsAny(sl[m[2]:m[3]], " is ", " are ", " was ") || bytes.HasPrefix(sl, []byte("if ")) || containsAny(sl[:m[2]], " if ", "unless") {
		// "The main question for Loki is how stable it is": no pick; "If
		// finance cuts the budget again, Loki it is": not yet.
		return nil
	}
	return m[2:4]
}

// settles applies the guards: no question, hypothetical, tentative or negated
// statement, nothing quoted, no walkthrough.
func settles(sl []byte, loc []int, role conversation.Role) bool {
	if isQuestion(sl) && !askedLater(sl, loc[1]) || containsAny(sl, "still ", "settled", "decided", "between") && reStillOpen.Match(sl) ||
		reDeferVerb.Match(head(sl[loc[1]:])) ||
		containsAny(sl[loc[0]:], "review", "meeting", "sync", "standup", "retro", "planning", "call", "demo") && reDeferred.Match(sl[loc[0]:]) {
		return false // "…, but Sam's worried about Dev, so that one's still open"
	}
	prefix := sl[:loc[0]]
	if bytes.HasSuffix(prefix, []byte("having ")) {
		return false // "treated as having agreed to calls": a participle, no one deciding
	}
	if reHypothetical.Match(prefix) {
		return false
	}
	clause := prefix[clauseStart(prefix):]
	if reTentative.Match(clause) || reNegation.Match(clause) || guessedBefore(clause) {
		return false
	}
	// Inside quotes or inline code: someone else's words, or an example.
	if bytes.Count(prefix, []byte{'"'})%2 == 1 || bytes.Count(prefix, []byte{'`'})%2 == 1 ||
		bytes.Count(prefix, []byte("“")) > bytes.Count(prefix, []byte("”")) {
		return false
	}
	if useVerb(sl[loc[0]:loc[1]]) && reWalkthrough.Match(sl) && !concludingThen(sl, loc, role) {
		return false
	}
	return true
}

// concludingThen reports a user's "Then we keep X." that concludes from
// what was said, not a step of a process: nothing after the thing ("then
// we use the token to call the API", "then we use kubectl apply, and the
// pods restart", "then we keep the old pods running until …").
func concludingThen(sl []byte, loc []int, role conversation.Role) bool {
	return role == conversation.RoleUser && bytes.HasPrefix(sl, []byte("then we ")) &&
		!containsAny(sl[loc[1]:], " to ", " and ", " which ", " until ", " then ", " while ", " so that ", " when ", ",")
}

// othersGuess are someone else's estimate or view reported right before a
// trigger: "my accountant reckons we'll save …", "the vendor expects that
// we'll need …".
var othersGuess = set(`reckons thinks estimates predicts expects reckoned predicted estimated expected`)

// guessedBefore reports a clause that ends on someone's estimate: the
// trigger after it is what they guess ("my accountant reckons we'll save
// £3,000"), not what anyone chose ("our DBA thinks MySQL is fine but we
// decided …" is still a decision).
func guessedBefore(clause []byte) bool { return othersGuess.Has(wordBefore(clause)) }

func isQuestion(sl []byte) bool {
	t := bytes.TrimRight(sl, " \t*_)\"'")
	if len(t) > 0 && t[len(t)-1] == '?' {
		return true
	}
	return reQuestionStart.Match(head(bytes.TrimLeft(sl, "*_ ")))
}

// clauseStart returns where the last clause of prefix begins.
func clauseStart(prefix []byte) int {
	i := bytes.LastIndexAny(prefix, ",;:(")
	for i >= 0 && prefix[i] == ':' && i+1 < len(prefix) && prefix[i+1] != ' ' {
		i = bytes.LastIndexAny(prefix[:i], ",;:(") // "Run:ai", "12:30": no clause break
	}
	if j := bytes.LastIndex(prefix, []byte(" — ")); j > i {
		i = j
	}
	return i + 1
}

// splitReason cuts a decision sentence [start,end) into the decision and the
// reason given in it ("…, because …"), looking for the reason after body.
func splitReason(text string, lower []byte, start, body, end int) (string, string) {
	dec, why := text[start:end], ""
	rest := lower[body:end]
	loc := findAt(reReasonIn, rest, reasonAnchors)
	if loc != nil {
		if m := reAsItStands.FindSubmatchIndex(rest[loc[0]:]); m != nil {
			// "stays as it is, since …": how the thing is kept is part of
			// the decision, and the reason, if any, comes after it ("as
			// they are cheaper" is a reason).
			after := loc[0] + m[3]
			if l := findAt(reReasonIn, rest[after:], reasonAnchors); l != nil {
				loc = []int{after + l[0], after + l[1]}
			} else {
				loc = nil
				if t := bytes.TrimLeft(rest[after:], " "); len(t) > 0 && (t[0] == ';' || t[0] == ':') {
					return cleanDecision(text[start:body+after], lower[start:body+after]), cleanReason(text[end-len(t)+1 : end])
				}
			}
		}
	}
	if loc == nil {
		if l := findAt(reReasonSo, rest, soAnchor); l != nil && bytes.HasSuffix(bytes.TrimRight(rest[:l[0]], " "), []byte(",")) {
			loc = l
		}
	}
	if loc == nil {
		// "we'll put 85-100k in the ad, I'll write the JD this week": a task
		// of the speaker's after a comma is no part of the decision.
		if i := reTaskAfter.FindIndex(rest); i != nil {
			return cleanDecision(text[start:body+i[0]], lower[start:body+i[0]]), ""
		}
		// "…, I prefer to have only one method for everything", "…, no
		// reason to install another thing": the speaker's view of it, or a
		// comment, is its reason.
		for _, r := range []*lazyRE{reViewAfter, reCommentAfter, reColonAfter} {
			if i := r.FindIndex(rest); i != nil && (r != reColonAfter || bytes.Count(rest[:i[0]], []byte{' '}) >= 3) {
				return cleanDecision(text[start:body+i[0]], lower[start:body+i[0]]), cleanReason(text[body+i[0]+2 : end])
			}
		}
	}
	// "we're going with Square — she liked the inventory": a clause of
	// someone's after a dash says why, and all after it ("…, so it pays
	// back").
	if bytes.Contains(rest, []byte(" —")) || bytes.Contains(rest, []byte(" –")) {
		if i := reDashAfter.FindSubmatchIndex(rest); i != nil && len(bytes.TrimSpace(rest[:i[0]])) > 0 && (loc == nil || i[0] < loc[0]) {
			return cleanDecision(text[start:body+i[0]], lower[start:body+i[0]]), cleanReason(text[body+i[2] : end])
		}
	}
	if loc != nil {
		cut := trimJoint(lower, start, body+loc[0])
		// "went with Ticket Tailor, mostly because …": the hedge goes with
		// the reason.
		for _, w := range []string{" mostly", " mainly", " partly", " largely", " simply", " only", " just"} {
			if bytes.HasSuffix(lower[start:cut], []byte(w)) {
				cut = trimJoint(lower, start, cut-len(w))
				break
			}
		}
		for cut > start && lower[cut-1] >= 0x80 && (strings.HasSuffix(text[start:cut], "—") || strings.HasSuffix(text[start:cut], "–")) {
			cut -= len("—")
		}
		dec = text[start:cut]
		why = text[body+loc[1] : end]
	}
	return cleanDecision(dec, lower[start:start+len(dec)]), cleanReason(why)
}

// reAsItStands is "as it is", "as they are", "as it stands": how a thing
// is kept, not why (see splitReason). Group 1 is the phrase, with "for now"
// or "anyway" if it has them.
var reAsItStands = re(`^(` + asItIsPhrase + `(?: for now| anyway)?)(?:\s*(?:[,;:.!]|$)| (?:because|since|given|so|though|and|but)\b)`)

// asItIsPhrase is how a thing is kept as it is: "as it is", "as they
// are", "as it stands".
const asItIsPhrase = `as (?:it|they|this|that) (?:is|are|was|were|stands?)`

// deciders are the people and groups whose choice the user reports (see
// reSetThe, reGroupFirst).
const deciders = `(?:the |our |my )?(?:committee|board|team|department|leadership|management|partners|council|panel|family|client|school|company|directors?|boss|manager|lead|cto|ceo)`

// trimJoint moves cut back past the spaces and punctuation that join a
// decision to its reason (", because", " (since").
func trimJoint(lower []byte, start, cut int) int {
	for cut > start && strings.ContainsRune(" ,;(—–-", rune(lower[cut-1])) {
		cut--
	}
	return cut
}

// decidedAgainst opens a decision that rules its object out ("Decided
// against: Keycloak").
const decidedAgainst = "Decided against: "

// redactedMarker opens the marker that stands for a removed secret
// ("[redacted: github-pat]").
const redactedMarker = "[redacted"

var (
	reasonAnchors = set(`because since so given as due`)
	soAnchor      = set(`so`)
)

// head returns the start of b that anchored patterns need to see: it keeps
// the matcher's work independent of the text's length.
func head(b []byte) []byte { return b[:min(len(b), maxTrigger)] }

// nextReason returns the sentence after sentence k when it gives a reason.
// reJustAssent is a sentence that only says yes ("that works, thanks"): it
// reads like a reason ("that works …") but gives none.
var reJustAssent = re(`^(?:this|it|that) works(?: for (?:me|us))?(?:[,.!]*\s*(?:thanks|thank you|thx|cheers|great|cool|perfect))*\s*[.!]*$`)

func nextReason(text string, lower []byte, sents []sentence, k int) string {
	if k+1 >= len(sents) {
		return ""
	}
	n := sents[k+1]
	if n.para != sents[k].para {
		return ""
	}
	loc := reReasonNext.FindIndex(head(lower[n.start:n.end]))
	if loc == nil || reJustAssent.Match(lower[n.start:n.end]) {
		return ""
	}
	r := text[n.start:n.end]
	// Keep "This keeps …" whole; drop only a connective or label.
	head := string(lower[n.start : n.start+loc[1]])
	if strings.HasPrefix(strings.TrimLeft(head, "*_"), "because") || strings.HasPrefix(strings.TrimLeft(head, "*_"), "since") ||
		strings.Contains(head, ":") {
		r = r[loc[1]:]
	}
	return cleanReason(r)
}

// reSuggested is someone else's suggestion ("someone on the team asked to
// log full request bodies", "a friend told me to try the store brand butter
// too, but nope"): group 1 is what they asked for, group 2 a refusal in the
// same sentence.
var reSuggested = re(`(?:^|[,;:—–] |\b(?:someone|somebody|friend|colleague|coworker|co-worker|manager|boss|team|they|he|she|people|folks|client|customer|mom|mum|dad|wife|husband|partner|vendor|landlord|sales|doctor|accountant|lawyer|neighbou?r|cofounder|co-founder|ceo|cto|legal|security|support|marketing|everyone|everybody)\b[^,;:]*? )(?:asked(?: me| us)?|told (?:me|us)|suggested(?: that)?(?: we| i| me| us)?|recommended(?: we| i)?|wants? (?:me|us)|wanted (?:me|us)|keeps? telling (?:me|us)) to (\w[^,;]{2,120}?)(?: too| as well)?(?:,? but (no|nope|nah|no way|not happening|hard no))?[.!]*$`)

// reBareRefusal is a sentence that only says no.
var reBareRefusal = re(`^(?:no|nope|nah|no way|hard no|not happening|absolutely not|definitely not)[.!]*$`)

// refusedSuggestion reads sentence k of a user's message as someone else's
// suggestion the user turns down, in the same sentence or the next: what
// was suggested, and the reason given after the refusal.
func refusedSuggestion(text string, lower []byte, sents []sentence, k int) (vp, why string, ok bool) {
	s := sents[k]
	sl := lower[s.start:s.end]
	// Most sentences hold none of the verbs: spared the pattern.
	if !bytes.Contains(sl, []byte(" to ")) || !containsAny(sl, "asked", "told", "suggest", "recommend", "want", "telling") || isQuestion(sl) ||
		containsAny(sl, "nobody", "no one", "never", "didn't", "did not", "hasn't", "has not", "wasn't") {
		return "", "", false // "Nobody on the team asked to log request bodies."
	}
	m := reSuggested.FindSubmatchIndex(sl)
	if m == nil {
		return "", "", false
	}
	next := k
	if m[4] < 0 {
		if k+1 >= len(sents) || sents[k+1].para != s.para && sents[k+1].para != s.para+1 {
			return "", "", false
		}
		n := sents[k+1]
		if !reBareRefusal.Match(bytes.TrimSpace(lower[n.start:n.end])) {
			return "", "", false
		}
		next = k + 1
	}
	vp = cleanDecision(text[s.start+m[2]:s.start+m[3]], sl[m[2]:m[3]])
	return vp, nextReason(text, lower, sents, next), true
}

// onHold reports "staying on" a line or a call, not on a thing chosen:
// "staying on hold with the airline".
func onHold(rest []byte) bool {
	w := firstWord(bytes.TrimLeft(rest, " "))
	return string(w) == "hold" || string(w) == "the" && bytes.HasPrefix(bytes.TrimLeft(rest, " "), []byte("the line"))
}

// worryBefore reports a prefix that makes the "we'll" after it a fear or a
// hope, not a plan: "worried we'll merge something that breaks e2e".
func worryBefore(prefix []byte) bool {
	w := wordBefore(prefix)
	return hedges.Has(w) || worryWords.Has(w)
}

// wordBefore is the last word of prefix, past a "that": the verb that
// governs what follows ("worried that we'll …", "reckons we'll …").
func wordBefore(prefix []byte) []byte {
	t := bytes.TrimSuffix(bytes.TrimRight(prefix, " "), []byte(" that"))
	return t[bytes.LastIndexByte(t, ' ')+1:]
}

// worryWords are the fears and hopes that, besides the hedges, make a
// following "we'll" no plan.
var worryWords = set(`worried worry worries afraid scared concerned nervous fear fears hope hoping wonder doubt`)

// reHowDecided is an account of how the decision was reached before the
// decision itself ("talked it through with my husband last night and we're
// switching to …", "Kids: we talked about it and we're going with …"): the
// story is no part of what was decided. Group 1 is an optional label to
// keep, group 2 where the decision starts: a speaker ("we", "I") or someone
// deciding ("the PI signed off"), so that a list of people ("with the two
// devs and our director, and we're …") is read past.
var reHowDecided = re(`^([^,:.]{1,30}:\s+)?[^.:;?!]{0,80}?\b(?:talked|talk(?:ed)? it (?:over|through)|discussed|spoke|sat down|slept on it|sleeping on it|chatted|had a (?:long |quick )?(?:call|chat|talk|meeting)|thought (?:about )?it (?:over|through)|went (?:over|through) (?:it|this|that|them))\b[^.:;?!]{0,80}?(?:,? and|:|,) ((?:we|i)\b|let's\b|the [a-z]+ (?:signed off|agreed|approved|decided|said yes)\b)`)

// storyVerbs are what reHowDecided needs, looked for before it runs: most
// decisions hold none.
var storyVerbs = []string{"talk", "discuss", "spoke", "sat down", "slept on", "sleeping on", "chatted", "had a ", "thought", "went over", "went through"}

// storyFirst reports whether the match m of reHowDecided in lower is a
// story told before the decision: under no decision label, nothing decided
// before the story's verb ("We're switching to the vendor that spoke at the
// meetup, and …" is a decision already), and the verb not a relative
// clause's ("the schema we discussed, and …").
func storyFirst(lower []byte, m []int) bool {
	if m[2] >= 0 && reDecisionLabel.Match(lower[m[2]:m[3]]) {
		return false
	}
	before := lower[:m[4]]
	return !reDecidedBefore.Match(before) && !reRelativeStory.Match(before)
}

var (
	reDecisionLabel = re(`^(?:decision|decided|decisions|settled|final|plan|agreed|conclusion|verdict|outcome)\b`)
	reDecidedBefore = re(`\b(?:we're|we'll|we are|we will|let's|i'll|i'm going|going with|go with|switching|decided|decision|chose|picked)\b`)
	reRelativeStory = re(`\b(?:the|a|an|this|that|which|what)\s+[a-z0-9-]+(?:\s+[a-z0-9-]+)?\s+(?:we|i|you|they)\s+(?:talked|discussed|spoke|chatted)\b|\b(?:that|who|which)\s+(?:talked|discussed|spoke|chatted)\b`)
)

func cleanDecision(s string, lower []byte) string {
	if loc := reLead.FindIndex(head(lower)); loc != nil && loc[1] < len(s) {
		s, lower = s[loc[1]:], lower[loc[1]:]
	}
	if h := head(lower); containsAny(h, storyVerbs...) {
		if m := reHowDecided.FindSubmatchIndex(h); m != nil && storyFirst(lower, m) {
			// What is left starts a sentence ("the PI signed off …" → "The PI
			// …") unless a label keeps its place ("Kids: we're going with …").
			if m[2] >= 0 {
				s = s[m[2]:m[3]] + s[m[4]:]
			} else {
				s = upperFirst(s[m[4]:])
			}
		}
	}
	s = trimText(s)
	if t, ok := strings.CutSuffix(s, ", then"); ok {
		s = t // "insert_overwrite with a four-day window, then": the "then" takes it
	}
	return s
}

func cleanReason(s string) string { return trimText(s) }

// joinWrapped joins a sentence cut at a hard line wrap to the line that
// continues it: inside a paragraph a single newline is a space. The next
// line goes on the sentence when the sentence does not end its line with
// closing punctuation and that line starts no list item, heading or label
// (a blank line or a list item starts a new sentence). sents is reused.
func joinWrapped(text string, sents []sentence) []sentence {
	out := sents[:0]
	for _, s := range sents {
		if n := len(out); n > 0 && s.lineStart && s.num == 0 && !s.afterLabel && !s.heading && !out[n-1].heading && out[n-1].para == s.para {
			prev := &out[n-1]
			gap := text[prev.end:s.start]
			if strings.Count(gap, "\n") == 1 && strings.TrimSpace(gap) == "" && !endsSentence(text[prev.start:prev.end]) && !letterItem(text[s.start:s.end]) {
				prev.end = s.end
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// letterItem reports a line that opens with a lettered option, "(b) a PR
// check": a list of its own, not a wrapped line.
func letterItem(s string) bool {
	if strings.HasPrefix(s, "**") {
		s = s[2:] // "**B.** Add a composite index"
		return len(s) > 3 && (s[1] == '.' || s[1] == ')') && (s[0]|0x20) >= 'a' && (s[0]|0x20) <= 'h'
	}
	return len(s) > 4 && s[0] == '(' && s[2] == ')' && s[3] == ' ' && (s[1]|0x20) >= 'a' && (s[1]|0x20) <= 'h'
}

// endsSentence reports whether s ends with closing punctuation, past any
// closing brackets, quotes or emphasis.
func endsSentence(s string) bool {
	s = strings.TrimRight(s, ")]\"'’”*_` \t\r")
	return s != "" && strings.ContainsRune(".!?:;", rune(s[len(s)-1]))
}

// Replacers are built once: building one costs more than most replacing.
var (
	unemphasise = strings.NewReplacer("**", "", "__", "")
	unmark      = strings.NewReplacer("*", "", "_", "", ":", " ")
)

// trimText drops markdown emphasis and surrounding punctuation; a line
// break inside a sentence (a hard wrap) becomes a space.
func trimText(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = strings.Join(strings.Fields(s), " ")
	}
	if strings.Contains(s, "**") || strings.Contains(s, "__") {
		s = unemphasise.Replace(s)
	}
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, " .!;:,—–-")
	s = strings.TrimLeft(s, " ,;:—–-")
	if strings.HasSuffix(s, ")") && strings.Count(s, "(") < strings.Count(s, ")") {
		s = strings.TrimRight(s[:len(s)-1], " .")
	}
	return strings.TrimSpace(s)
}

// reLetsTakeThat is "do that", "go with it" after "let's": taking what was
// said.
var reLetsTakeThat = re(`^(?:do|go with|go for|take)\s+(?:that|this|it)\b`)

func letsTakeThat(verbOn []byte) bool { return reLetsTakeThat.Match(head(verbOn)) }

// reOpinion opens a sentence that judges an option rather than saying
// what it is ("I'd avoid this one.", "Overkill at your volume.").
var reOpinion = re(`^(?:i|i'd|i'm|i would|you|you'd|we|but|however|though|avoid|overkill|not|never|too|only if|this|that|it|it's|risky|expensive|cheap|simple|simpler|easy|easier|hard|harder|good|great|bad|best|worst|nice)\b`)

// inProposal reports whether the words of rest up to its first
// punctuation are all said in the proposal: "with mice" restates "mice
// with predictive mean matching", "with Memcached instead of Redis"
// changes it.
func inProposal(rest []byte, proposal string) bool {
	if i := bytes.IndexAny(rest, ",;:.!?—("); i >= 0 {
		rest = rest[:i]
	}
	said, prop := contentWords(string(rest)), contentWords(proposal)
	return len(said) > 0 && subset(said, prop)
}

// bareLabel returns the key of a sentence that is only an option's letter
// on its own line ("B."), when it is the first of its list ("a") or follows
// the letter before it: a lone "C." is more likely an initial.
func bareLabel(sl []byte, lineStart bool, options map[string]string) (string, bool) {
	sl = bytes.TrimSpace(sl)
	if !lineStart || len(sl) != 2 || sl[1] != '.' || sl[0] < 'a' || sl[0] > 'h' {
		return "", false
	}
	key := string(sl[:1])
	if sl[0] != 'a' && options[string(sl[0]-1)] == "" {
		return "", false
	}
	return key, true
}

// optionLine reports a line that may open with a labelled option, one of
// reOption's forms, cheaply: "Option B:", "**Approach 2:**", "**B.** …",
// "(b) …", "b) …", "**(b)** …". Only such lines are matched against it.
func optionLine(sl []byte) bool {
	t := bytes.TrimLeft(sl, "*_")
	switch {
	case bytes.HasPrefix(t, []byte("option ")), bytes.HasPrefix(t, []byte("approach ")), bytes.HasPrefix(t, []byte("alternative ")):
		return true
	case bytes.HasPrefix(sl, []byte("**(")):
		return len(sl) > 6 && sl[4] == ')'
	case bytes.HasPrefix(sl, []byte("**")):
		return len(sl) > 5 && (sl[3] == '.' || sl[3] == ')')
	case len(sl) > 4 && sl[0] == '(':
		return sl[2] == ')'
	}
	return len(sl) > 3 && sl[1] == ')' && sl[2] == ' ' && sl[0] >= 'a' && sl[0] <= 'h'
}

// restates reports whether the sentence sl that picks option o goes on to
// say it in its own words, and more ("(a), fixed horizon at 8% MDE: run
// until 68k per arm"): two fifths of the option's content words, and at
// least two, come after the pick, with two or more of its own, and what
// comes after is not the speaker's view of it ("(b), the weekend backfill
// worries me less").
func restates(sl []byte, o string) bool {
	i := bytes.IndexAny(sl, ",:")
	if i < 0 || reComment.Match(sl[i+1:]) {
		return false
	}
	said, opt := contentWords(string(sl[i+1:])), contentWords(o)
	shared := sharedWords(said, opt)
	return len(said)-shared >= 2 && shared >= 2 && saysMuchOf(shared, opt)
}

// reComment is a speaker's view of a thing rather than a statement of it.
var reComment = re(`\b(?:me|my|i think|i feel|i guess|i like|i prefer|i hope|worr(?:y|ies|ied)|scares?|scared|happy|annoy\w*|love|hate|better|worse|less|more than|nicer|safer|cheaper)\b`)

// sharedWords is the number of words of a also in b.
func sharedWords(a, b map[string]struct{}) int {
	n := 0
	for w := range a {
		if _, ok := b[w]; ok {
			n++
		}
	}
	return n
}

// saysMuchOf reports whether shared words are two fifths or more of opt's.
func saysMuchOf(shared int, opt map[string]struct{}) bool {
	return shared >= 1 && 5*shared >= 2*len(opt)
}

// reOptionIn is a labelled option taken inside a sentence: "signed off on
// (b)", "we'll do (b) for the signed zones", "go with option (c)". A
// letter in brackets elsewhere ("clause 7(b)", "(a) freeze writes and (b)
// run the backfill") names no option.
var reOptionIn = re(`\b(?:on|do|with|for|take|took|pick|picked|chose|choose|approved|approve|prefer|is|it's),?\s+(?:option\s+)?\(([a-h])\)(?:\s|[,.;:!]|$)`)

// namesOptionOf reports whether an assistant's text names one of options by
// its label, as a recommendation does: "I'd go with **A, `(customer_id,
// created_at)`**", "**(b)**", "option B". A bare "(b)" is as often an
// enumeration ("(a) you need an API key and (b) a paid plan").
func namesOptionOf(text string, options map[string]string) bool {
	for key := range options {
		if len(key) != 1 || key[0] < 'a' || key[0] > 'h' {
			continue
		}
		up := strings.ToUpper(key)
		for _, form := range [...]string{"**" + up + ",", "**" + up + "**", "**" + up + ":", "**(" + key + ")", "option " + up, "Option " + up} {
			if strings.Contains(text, form) {
				return true
			}
		}
	}
	return false
}

var reOptionCapital = re(`\b[Oo]ption\s+([A-H])\b`)

// optionRef returns the text of the option dec takes by its label, from the
// options laid out last, or "" when it takes none of them, names more than
// one label, or says most of it already.
func (st *decisionState) optionRef(dec string) string {
	if len(st.options) == 0 || strings.Count(dec, "(") > 1 || !strings.Contains(dec, "(") && !strings.Contains(dec, "ption") {
		return ""
	}
	lower := asciiLower(nil, dec) // byte offsets as in dec
	m := reOptionIn.FindSubmatchIndex(lower)
	if m == nil {
		// "option B, with half-up rounding": a capital, as "an option a
		// customer can switch on" is none.
		if m = reOptionCapital.FindSubmatchIndex([]byte(dec)); m == nil {
			return ""
		}
	}
	o, ok := st.options[string(lower[m[2]:m[3]])]
	if opt := contentWords(o); !ok || saysMuchOf(sharedWords(contentWords(dec), opt), opt) {
		return "" // "option B: delta updates" already says what B is
	}
	return o
}

// reBareOption is a decision that is nothing but an option's label, taken
// or turned down: "option 2", "A is out", "B makes sense", "(b) then".
var reBareOption = re(`^(decided against: )?(?:(?:the )?option\s+)?[*(#]*([a-h]|[1-9])[)*]*(?:\s+(?:it is|is in|(is out|is off the table)|makes sense|sounds (?:good|right|fine)|then|works|is fine|is good|please|for sure|for now|anyway|too))*[.!]*$`)

// bareOptionRef returns the label a decision names and nothing else, and
// whether it turns that option down.
func bareOptionRef(dec string) (key string, against, ok bool) {
	lower := asciiLower(nil, dec)
	m := reBareOption.FindSubmatchIndex(lower)
	if m == nil {
		return "", false, false
	}
	return string(lower[m[4]:m[5]]), m[2] >= 0 || m[6] >= 0, true
}

// lastAnswers yields the assistant's last n messages before the one being
// read, the latest first: the answers a reply may point back into.
func (st *decisionState) lastAnswers(n int) iter.Seq[*conversation.Message] {
	return func(yield func(*conversation.Message) bool) {
		for i := st.cur - 1; i >= 0 && n > 0; i-- {
			m := &st.msgs[i]
			if m.Role != conversation.RoleAssistant || !usable(m) || m.Sidechain {
				continue
			}
			n--
			if !yield(m) {
				return
			}
		}
	}
}

// optionNamed returns the text of the option labelled key ("b", "2"): one
// of the lettered options the assistant laid out last (st.options), or a
// row of a table of the assistant's last few messages ("| **B** | … |",
// "| 2 | … |"), the latest first; "" when none is.
func (st *decisionState) optionNamed(key string) string {
	if o, ok := st.options[key]; ok {
		return o
	}
	for m := range st.lastAnswers(3) {
		items, opts := tableRows(m.Content)
		if o, ok := opts[key]; ok {
			return o
		}
		for _, it := range items {
			if strconv.Itoa(it.num) == key {
				return rowText(m.Content, it)
			}
		}
	}
	return ""
}

// rowText is the text of a numbered table row from its second cell on,
// the cells joined: "| 2 | TanStack Query | React context + `useReducer` |
// No extra dependency |" is "TanStack Query; React context + useReducer",
// its last cell a note when there are three or more.
func rowText(text string, it numberedItem) string {
	end := strings.IndexByte(text[it.start:], '\n')
	if end < 0 {
		end = len(text) - it.start
	}
	var cells []string
	for c := range strings.SplitSeq(strings.Trim(strings.TrimSpace(text[it.start:it.start+end]), "|"), "|") {
		if c = trimText(strings.ReplaceAll(c, "`", "")); c != "" {
			cells = append(cells, c)
		}
	}
	if len(cells) >= 3 {
		cells = cells[:len(cells)-1]
	}
	return strings.Join(cells, "; ")
}

// namedThing returns the full name of what a decision of "the X" ("the
// lasagna", "the hotel") picks, as the assistant's last few messages name
// it in a table's first column or in bold, opening with X's words
// ("Lasagna vegetariana", "Hotel near Marquês"), or "" when they name no
// such thing or more than one.
func (st *decisionState) namedThing(dec string) string {
	ws := theThing(dec)
	if ws == nil {
		return ""
	}
	found := ""
	for m := range st.lastAnswers(3) {
		for name := range thingNames(m.Content) {
			lw := strings.Fields(strings.ToLower(name))
			if len(lw) <= len(ws) || len(lw) > 5 || !namesAll(lw[:len(ws)], ws) {
				continue // the name opens with the thing: "Lasagna vegetariana", not "Why not the lasagna"
			}
			if found != "" && !strings.EqualFold(found, name) {
				return "" // "the hotel" could be either
			}
			found = name
		}
		if found != "" {
			return found // the latest message that names it is what was meant
		}
	}
	return ""
}

// thingNames yields the names a message gives things: a table row's first
// cell, a bold span. A heading is more often a question or a claim ("Why
// not the lasagna").
func thingNames(text string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for line := range strings.Lines(text) {
			line = strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(line, "|"):
				cell, _, _ := strings.Cut(line[1:], "|")
				if name := trimText(cell); name != "" && !yield(name) {
					return
				}
			}
			for rest := line; ; {
				i := strings.Index(rest, "**")
				if i < 0 {
					break
				}
				j := strings.Index(rest[i+2:], "**")
				if j < 0 {
					break
				}
				if name := trimText(rest[i+2 : i+2+j]); name != "" && !yield(name) {
					return
				}
				rest = rest[i+2+j+2:]
			}
		}
	}
}

// theThing returns the words of a thing named "the X" or "the X Y" ("the
// split", "the basic timer"), lower case and without "the", or nil for
// anything else.
func theThing(s string) []string {
	if len(s) > 60 || len(s) < 5 || !strings.EqualFold(s[:4], "the ") {
		return nil // most decisions, refused before they are split into words
	}
	ws := strings.Fields(strings.ToLower(strings.TrimRight(s, ".!")))
	if len(ws) < 2 || len(ws) > 3 || ws[0] != "the" {
		return nil
	}
	return ws[1:]
}

// namedBullet returns the one list item of text that short ("the split",
// "the lease table") names among its first words ("- **Split the state per
// environment:** one state file per environment"), or "" when short names
// no item or more than one.
func namedBullet(text, short string) string {
	ws := theThing(short)
	if ws == nil {
		return ""
	}
	found := ""
	for line := range strings.Lines(text) {
		item, isItem, _ := stripMarker(strings.TrimSpace(line))
		if !isItem {
			continue
		}
		item = trimText(item)
		lead := strings.Fields(strings.ToLower(unmark.Replace(item)))
		lead = lead[:min(len(lead), 3)] // what an item is about comes first: "Split the state …"
		if !namesAll(lead, ws) {
			continue
		}
		if found != "" {
			return "" // "the split" could be either
		}
		found = item
	}
	return found
}

// namesAll reports whether every word of want is a word of have or a form
// of one (formOf: "split" ~ "splitting").
func namesAll(have, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(have, func(h string) bool { return formOf(h, w) }) {
			return false
		}
	}
	return true
}

// bulletAt reports whether the line holding offset i of text is a bullet
// list item ("- Tokyo 4 → Hakone 1").
func bulletAt(text string, i int) bool {
	line := text[strings.LastIndexByte(text[:i], '\n')+1:]
	_, item, num := stripMarker(strings.TrimLeft(line, " \t"))
	return item && num == 0
}

// findProposal returns the recommendation an assistant message makes, if
// any: the first sentence that recommends or lays out a plan ("Plan: …"),
// with the labelled options the message offers ("Option B: …").
func (e *Extractor) findProposal(text string, st *decisionState) *proposal {
	var p *proposal
	var imp *proposal // an advice in the imperative, if nothing says "I recommend"
	var options map[string]string
	var items []numberedItem
	var planItems []string
	optionBody := -1 // the sentence after a bare option label
	for k, s := range st.sents {
		sl := st.lower[s.start:s.end]
		if n := len(items); n > 0 && items[n-1].heading && !s.heading && st.sents[k-1].heading && !isQuestion(sl) {
			items[n-1].advice = st.sectionAdvice(text, s)
		}
		if k <= optionBody {
			continue // the text of a bare "B." label, taken with it
		}
		if key, ok := bareLabel(sl, s.lineStart, options); ok && k+1 < len(st.sents) && !st.sents[k+1].lineStart {
			// "A. Extract a full auth service: …" on its line is option A,
			// split at the label's period. Without a period, "A. Use Redis"
			// runs on into the next line's label: the sentence "Use
			// Redis\nB." is A's text and B's label, and B's text follows.
			for j := k + 1; j < len(st.sents); j++ {
				n := st.sents[j]
				end, next := n.end, ""
				if i := strings.IndexByte(text[n.start:n.end], '\n'); i >= 0 {
					end, next = n.start+i, strings.TrimSpace(string(st.lower[n.start+i:n.end]))
				}
				dec, _ := splitReason(text, st.lower, n.start, n.start, end)
				if len(dec) < 3 || isQuestion(st.lower[n.start:end]) {
					break
				}
				if options == nil {
					options = map[string]string{}
				}
				options[key] = dec
				optionBody = j
				if len(next) != 2 || next[1] != '.' || next[0] != key[0]+1 {
					break
				}
				key = next[:1]
			}
			if optionBody > k {
				continue
			}
		}
		if s.lineStart && optionLine(sl) {
			if m := reOption.FindSubmatchIndex(head(sl)); m != nil && m[1] < len(sl) {
				dec, _ := splitReason(text, st.lower, s.start+m[1], s.start+m[1], s.end)
				// A bold title alone on its line: the line after it, in the
				// same block, says what it is ("**B) Classic + hot
				// springs**", "- Tokyo 4 → Hakone 1 → Kyoto 4 → Osaka 3").
				titleLine := bytes.HasSuffix(bytes.TrimRight(sl, " :"), []byte("**"))
				if n := st.sents; len(dec) >= 3 && strings.Count(dec, " ") < 4 && k+1 < len(n) && n[k+1].para == s.para && (!n[k+1].lineStart || titleLine && bulletAt(text, n[k+1].start) || s.heading) &&
					!reOpinion.Match(head(st.lower[n[k+1].start:n[k+1].end])) {
					// "**B. Cloud-native managers.** AWS Secrets Manager for …":
					// a title alone says little of what is picked.
					next, _ := splitReason(text, st.lower, n[k+1].start, n[k+1].start, n[k+1].end)
					if next != "" {
						dec += ": " + next
					}
				}
				if len(dec) >= 3 {
					if options == nil {
						options = map[string]string{}
					}
					key := m[2:4]
					for g := 4; key[0] < 0 && g+1 < len(m); g += 2 {
						key = m[g : g+2] // "**B. Northern section**", "(b) a PR check"
					}
					if k := string(sl[key[0]:key[1]]); options[k] == "" {
						options[k] = dec // a later "(b) is simpler" names it, it does not lay it out
					}
				}
				continue
			}
		}
		if s.lineStart && s.num > 0 && !isQuestion(sl) && !st.asks(s.num) {
			// "2. **ristretto** – very fast, but …": what "the second one"
			// or "option 2" picks; "1. **Time zones.** Do clinics span time
			// zones?" asks, a yes to it takes no "Time zones".
			items = append(items, numberedItem{num: s.num, start: s.start, end: s.end, heading: s.heading})
		}
		if (s.afterPlan || s.afterProposal) && !isQuestion(sl) {
			// The items of "Here's the plan:" are the proposal together.
			if dec := cleanDecision(text[s.start:s.end], sl); len(dec) >= 3 {
				planItems = append(planItems, strings.TrimRight(dec, "."))
			}
			continue
		}
		if p != nil {
			continue
		}
		if imp == nil && k-bareAnswer(st) < imperativeProposalSentences && imperativeProposal(sl) {
			if dec, why := splitReason(text, st.lower, s.start, s.start, s.end); len(dec) >= 3 {
				if why == "" {
					why = nextReason(text, st.lower, st.sents, k)
				}
				imp = &proposal{text: dec, rationale: why}
			}
		}
		if imp == nil && k == bareAnswer(st) && opensMessage(text, st.sents, k) && !asksLater(st, k) {
			if at := actionAdvice(sl); at >= 0 {
				if dec, why := splitReason(text, st.lower, s.start+at, s.start+at, s.end); len(dec) >= 3 {
					if d, r, ok := cutAside(dec, " — ", " – ", "; "); ok {
						dec, why = d, r // "Replace the HDD with an SSD; it's the cheapest fix"
					}
					if why == "" {
						why = nextReason(text, st.lower, st.sents, k)
					}
					imp = &proposal{text: upperFirst(dec), rationale: why, action: true} // "I'd partition …" opens with the verb
				}
			}
		}
		start := -1
		if loc := proposalLabel(sl); loc != nil && loc[1] < len(sl) && !isQuestion(sl) {
			if containsAny(sl[:loc[1]], "simplest", "easiest", "concretely") && (containsAny(sl, "i wouldn't", "i would not", "i'd avoid", "not recommended") || offersLater(st, k)) {
				continue // "Easiest: disable the check — but I wouldn't"; "Simplest: … Want me to draft the sign?" is answered with the yes
			}
			start = s.start + loc[1]
		} else if loc := planLabel(sl); loc != nil && loc[1] < len(sl) && !isQuestion(sl) {
			start = s.start + loc[1]
		} else if loc := findAtToks(reProposal, sl, st.anchorToks(sl), anchorProposal); loc != nil && proposes(sl, loc) {
			// The decision is the thing proposed, without "I recommend".
			start = s.start + loc[1]
			if l := reProposalLead.FindIndex(head(st.lower[start:s.end])); l != nil {
				start += l[1]
			}
		} else {
			continue
		}
		dec, why := splitReason(text, st.lower, start, start, s.end)
		if d, comment := cutComment(dec); comment != "" {
			dec = d
			if why == "" {
				why = comment
			}
		}
		if why == "" {
			why = nextReason(text, st.lower, st.sents, k)
		}
		if len(dec) < 3 || pointsElsewhere(dec) {
			continue // "I'd recommend it if you can afford it" names nothing
		}
		p = &proposal{text: dec, rationale: why}
	}
	if items == nil || options == nil {
		tItems, tOpts := tableRows(text)
		if items == nil {
			items = tItems
		}
		if options == nil {
			options = tOpts
		}
	}
	if p == nil && len(planItems) > 0 {
		p = &proposal{text: strings.Join(planItems, "; ")}
	}
	if p == nil && len(st.sents) > 0 {
		// "Want me to switch the cache to Redis?" ends the message: the
		// change offered is what a yes takes.
		s := st.sents[len(st.sents)-1]
		sl := st.lower[s.start:s.end]
		if m := reOffer.FindSubmatchIndex(head(sl)); m != nil && isQuestion(sl) && !reAnyAnaphor.Match(sl[m[3]:]) {
			if dec := strings.TrimRight(cleanDecision(text[s.start+m[2]:s.end], sl[m[2]:]), "?"); len(dec) >= 3 {
				p = &proposal{text: upperFirst(dec)} // it opens with the offer's verb
			}
		}
	}
	if p == nil {
		p = imp
	}
	if p != nil {
		if o := namedBullet(text, p.text); o != "" {
			p.text = o // "I'd recommend the split": the listed option it names
		}
	}
	if options != nil || items != nil {
		if p == nil {
			p = &proposal{}
		}
		p.options, p.itemText, p.items = options, text, items
		if len(p.text) <= 48 {
			if o := pickedOption(asciiLower(nil, p.text), p); o != "" {
				p.text = o // "I'd recommend option 1": option 1 is what is taken
			}
		}
	}
	return p
}

// sectionAdvice is the first sentence s of a numbered section as what a
// yes to the section takes: "I'd **drop them**." is "drop them"
// (under its title "Banners"), "Go **free-to-play on both platforms**"
// as written.
func (st *decisionState) sectionAdvice(text string, s sentence) string {
	lower := st.lower
	sl, start := lower[s.start:s.end], s.start
	if loc := findAtToks(reProposal, sl, st.anchorToks(sl), anchorProposal); loc != nil && proposes(sl, loc) {
		start += loc[1]
		if l := reProposalLead.FindIndex(head(sl[loc[1]:])); l != nil {
			start += l[1]
		}
	} else if loc := reIdVerb.FindIndex(head(sl)); loc != nil {
		start += loc[1]
	} else if first := firstWord(bytes.TrimLeft(sl, "*_")); !adviceVerbs.Has(first) && !bytes.HasPrefix(sl, []byte("**")) {
		// "SCIM matters mostly for deprovisioning": the section explains;
		// "Go **free-to-play**" and "**Grandfather them**" advise.
		return ""
	}
	dec, _ := splitReason(text, lower, start, start, s.end)
	return strings.TrimRight(dec, ".:")
}

// adviceVerbs open an advice in the imperative: a section's title or first
// sentence that a yes takes ("Let admins enforce SSO").
var adviceVerbs = set(imperativeVerbList + ` add make set limit put run leave do let cap pin rename split enable disable require replace remove
	turn raise lower rotate upgrade cache store send block allow ship launch build buy rent book charge price
	don't don’t never avoid`)

// reIdVerb is the "I'd" before an advice's verb: "I'd **drop them**".
var reIdVerb = re(`^i(?:'d| would)\s+(?:\*\*)?(?:just |probably |also )?(?:\*\*)?`)

// reasonOpener opens what a dash after a decision says of it (cutAside): a clause
// about something already named ("— the auth snippets become …", "— it's
// cheaper"), not more of the decision ("— two nodes, one replica").
var reasonOpener = set(`the it it's its they they're that that's this these those our their there my i i'm nobody everyone`)

// dashReason reports what follows a dash as a clause of its own, a reason
// ("the auth snippets become SecurityPolicy", "it's cheaper"), not the
// choice's details ("the cloud plan, not self-hosted").
func dashReason(r []byte) bool {
	if bytes.HasPrefix(r, []byte("the one")) || reThatsScope.Match(r) {
		return false // "— the one that costs $40", "— that's final", "— that's per user"
	}
	return isClause(r) || anyWord(r, reasonVerbs)
}

// reThatsScope is a dash clause that says more of the decision itself.
var reThatsScope = re(`^that(?:'s| is) (?:final|it|per|for|only|all|the|just|across|everywhere)\b`)

// reasonVerbs are verbs a reason after a dash often has that reFiniteVerb
// does not list.
var reasonVerbs = set(`become becomes cover covers fit fits beat beats save saves cost costs win wins break breaks`)

// deferringAmend open a "yes, but …" that puts the change off or only
// talks: "yes, but let's hold off until after the release".
var deferringAmend = set(`let's lets we'll leave do also with without`)

// reStaysAmend is a "yes, but" whose change is a thing kept as it is:
// "Agreed — but raw stays 180 days".
var reStaysAmend = re(`^(?:the |our )?[a-z0-9][a-z0-9 ./_-]{0,30}? stays\b`)

// adviceActions open the change an answer advises in its first sentence
// ("Add a composite index on …", "I'd partition the table by month"): what
// a "Do that." takes. Verbs of finding out (check, look, try, run) are
// not among them: "Run EXPLAIN and paste the output" is a step, not a plan.
var adviceActions = set(imperativeVerbList + ` add set limit cap pin split enable disable require replace remove raise lower
	rotate upgrade downgrade partition shard index batch cache schedule merge reduce increase move rename archive
	block allow rate-limit throttle retire deprecate charge price hold reserve offer send`)

// actionAdvice returns where the advice of an answer's first sentence sl
// starts, at its verb ("Add a composite index …", "I'd add …"), or -1.
func actionAdvice(sl []byte) int {
	if isQuestion(sl) {
		return -1
	}
	at := 0
	if loc := reIdVerb.FindIndex(head(sl)); loc != nil {
		at = loc[1]
	}
	if !adviceActions.Has(firstWord(sl[at:])) || reNotImperative.Match(head(sl[at:])) || reNotAdvice.Match(sl[at:]) {
		return -1
	}
	// The verb must take an object: "Cache misses are the likely cause",
	// "Index bloat is …", "I'd add that …", "Move fast here" are no advice.
	_, rest, _ := bytes.Cut(sl[at:], []byte(" "))
	if w := firstWord(rest); !adviceObject.Has(w) && (len(w) == 0 || w[0] < '0' || w[0] > '9') {
		return -1
	}
	return at
}

// adviceObject may follow an advised verb: what it acts on starts there.
var adviceObject = set(`the a an your its their each every all both one two three four five it them up down off back out`)

// reNotAdvice marks a first sentence that is a step of finding out, an
// introduction to code, or a choice still open: "Add a print statement
// to see …", "Enable slow query logging and send me what shows up", "Add
// the following import:", "Add an index, or partition by month".
var reNotAdvice = re(`\bto (?:see|check|find|test|confirm)\b|\b(?:send|show|tell|give) me\b|\bpaste\b|\blet me know\b|\bfollowing\b|:\s*$|\bor\b`)

// offersLater reports whether the message offers, after sentence k, to do
// something ("Do you want me to draft the sign?"): a yes takes the offer.
func offersLater(st *decisionState, k int) bool {
	for _, s := range st.sents[k+1:] {
		if sl := st.lower[s.start:s.end]; isQuestion(sl) && containsAny(sl, "want me to", "like me to", "shall i", "should i") {
			return true
		}
	}
	return false
}

// asksLater reports whether the message asks something after sentence k:
// a "Yes." then answers the question, not the advice.
func asksLater(st *decisionState, k int) bool {
	for _, s := range st.sents[k+1:] {
		if isQuestion(st.lower[s.start:s.end]) {
			return true
		}
	}
	return false
}

// cutAside splits a decision from what one of seps (a dash, a semicolon)
// after it says of it, a reason ("Replace the HDD with an SSD; it's the
// cheapest fix", "we're going with Envoy Gateway — the auth snippets become
// …"); ok is false when what follows says more of the decision ("— the
// cloud plan, not self-hosted").
func cutAside(dec string, seps ...string) (d, reason string, ok bool) {
	for _, sep := range seps {
		d, r, found := strings.Cut(dec, sep)
		if !found || len(d) < 3 {
			continue
		}
		lr := asciiLower(nil, r)
		if reasonOpener.Has(firstWord(lr)) && dashReason(lr) {
			return d, strings.TrimSpace(r), true
		}
	}
	return dec, "", false
}

// reasonAfterDash is what follows a decision ending at offset end of
// sentence s after a dash or a semicolon ("Nunito for the wordmark — it
// looked friendly"), else the reason the next sentence gives.
func reasonAfterDash(text string, s sentence, end int, lower []byte, sents []sentence, k int) string {
	rest := strings.TrimSpace(text[s.start+end : s.end])
	if strings.HasPrefix(rest, ";") || strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "- ") {
		if r := trimText(strings.TrimLeft(rest, ";—–- ")); r != "" {
			return r
		}
	}
	return nextReason(text, lower, sents, k)
}

// reMinus is what an acceptance leaves out: "…, minus the double points",
// "…, without the rubric", "…, except the Friday slot". Group 1 is the
// thing.
var reMinus = re(`,\s*(?:minus|without|except(?: for)?|but not|but without) (?:skip |drop )?(?:the|your) ([a-z0-9][a-z0-9/_-]*(?:\.[a-z0-9]+)*(?: [a-z0-9][a-z0-9/_-]*(?:\.[a-z0-9]+)*){0,3}?)(?:\s+-\s|\s*[,;.!—–]|$)`)

// reMinusVerb is the verb of a reMinus match that says what to do instead
// of "decided against": "…, except skip the email". Group 1 starts it.
var reMinusVerb = re(`^,\s*(?:minus|without|except(?: for)?|but not|but without) ((?:skip|drop) )`)

// withoutItem drops from a plan of items joined by "; " those that name
// every word of thing.
func withoutItem(plan, thing string) string {
	items := strings.Split(plan, "; ")
	if len(items) < 2 {
		return plan
	}
	want := strings.Fields(strings.ToLower(thing))
	want = slices.DeleteFunc(want, func(w string) bool { return w == "the" || w == "your" || w == "a" || w == "an" })
	kept := items[:0]
	for _, it := range items {
		// "the image build" names "Build the image on every push"; "a
		// doubt" does not name "Double points".
		if len(want) == 0 || !hasAllWords(strings.ToLower(it), want) {
			kept = append(kept, it)
		}
	}
	if len(kept) == 0 {
		return plan
	}
	return strings.Join(kept, "; ")
}

// hasAllWords reports whether every word of want is a word of text, or
// its plural.
func hasAllWords(text string, want []string) bool {
	have := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' })
	for _, w := range want {
		if !slices.ContainsFunc(have, func(h string) bool { return h == w || h == w+"s" || h+"s" == w }) {
			return false
		}
	}
	return true
}

// bareSkip reports an imperative that is a bare "skip": "4. skip." answers
// a point, what it skips is the point's.
func bareSkip(imp []byte) bool {
	return bytes.HasPrefix(imp, []byte("skip")) && len(bytes.Trim(imp[len("skip"):], " .!")) == 0
}

// opensMessage reports whether sentence k of text is where its message
// starts, after a bare yes or no at most: no heading or table before it.
func opensMessage(text string, sents []sentence, k int) bool {
	from := 0
	if k > 0 {
		from = sents[k-1].end
	}
	return strings.TrimSpace(text[from:sents[k].start]) == ""
}

// acceptsPlainly reports whether the reply st holds opens with a plain yes
// ("Yes.", "Do that.", "Sounds good, go ahead"), not an "ok" that may only
// acknowledge.
func acceptsPlainly(st *decisionState) bool {
	if len(st.sents) == 0 {
		return false
	}
	first := bytes.TrimLeft(st.lower[st.sents[0].start:st.sents[0].end], " *_\"'")
	switch string(bytes.TrimRight(first, " .!")) {
	case "yes", "yep", "yeah", "yes please", "yes, please", "sure", "sure thing", "ok, do it", "okay, do it":
		return true
	}
	for _, lead := range []string{"sure, ", "sure — "} {
		first = bytes.TrimPrefix(first, []byte(lead)) // "Sure, go ahead."
	}
	return reAcceptStrong.Match(head(first))
}

// bareAnswer is 1 when the message opens with a bare "No." or "Yes.", which
// does not count towards how far into it an advice stands.
func bareAnswer(st *decisionState) int {
	if len(st.sents) == 0 {
		return 0
	}
	s := st.sents[0]
	switch string(bytes.Trim(st.lower[s.start:s.end], " .!*_")) {
	case "no", "yes", "nope", "yep", "yeah", "sure", "correct", "right", "exactly", "short answer: no", "short answer: yes":
		return 1
	}
	return 0
}

// imperativeProposalSentences is how far into the assistant's message an
// advice in the imperative counts as its answer: further down, "use" and
// "switch" are steps of a walkthrough.
const imperativeProposalSentences = 3

// imperativeProposal reports an assistant's sentence that advises a choice
// in the imperative ("Use one FIFO queue per customer", "Switch the CI to
// actions-runner-controller"): what the user's "sounds good" takes.
func imperativeProposal(sl []byte) bool {
	if isQuestion(sl) || !imperativeVerbNear(sl) || reWalkthrough.Match(head(sl)) {
		return false
	}
	loc := reImperative.FindSubmatchIndex(head(sl))
	return loc != nil && !reNotImperative.Match(head(sl[loc[2]:]))
}

func proposes(sl []byte, loc []int) bool {
	if isQuestion(sl) {
		return false
	}
	prefix := sl[:loc[0]]
	if reHypothetical.Match(prefix) || reNegation.Match(prefix[clauseStart(prefix):]) {
		return false
	}
	// "I'd recommend against X", "I wouldn't recommend".
	rest := bytes.TrimLeft(sl[loc[1]:], " ")
	return !bytes.HasPrefix(rest, []byte("against")) && !bytes.HasPrefix(rest, []byte("not "))
}

// accepts reports whether a user message opens by accepting what the
// assistant proposed.
func accepts(text string, lower []byte, sents []sentence, proposed string) bool {
	if len(sents) == 0 {
		return false
	}
	first := lower[sents[0].start:sents[0].end]
	first = bytes.TrimLeft(first, " *_\"'")
	if reAcceptStrong.Match(head(first)) {
		return !reContrast.Match(first)
	}
	if !reAcceptWeak.Match(head(first)) {
		return false
	}
	// A bare "ok" or "yes" accepts only a short reply that neither asks nor
	// objects, nor names a choice of its own: "Fine, Redis it is." after
	// Postgres was proposed takes Redis.
	if loc := itIs(first); loc != nil {
		off := sents[0].start + (len(lower[sents[0].start:sents[0].end]) - len(first))
		if !subset(contentWords(text[off+loc[0]:off+loc[1]]), contentWords(proposed)) {
			return false
		}
	}
	all := lower[sents[0].start:sents[len(sents)-1].end]
	return len(text) <= 200 && bytes.IndexByte(all, '?') < 0 && !reContrast.Match(all)
}

// appendDecision adds a decision unless it is empty or repeats one already
// found.
func (e *Extractor) appendDecision(st *decisionState, out []conversation.Decision, m *conversation.Message, dec, why string) []conversation.Decision {
	// A secret's redaction marker is no decision, and no reason either.
	if strings.Contains(dec, redactedMarker) {
		return out
	}
	if strings.Contains(why, redactedMarker) {
		why = ""
	}
	why = conversation.Reason(why) // "…, because our DBA says …" is shown after "because"
	if m.Role == conversation.RoleUser {
		if d, r, ok := cutAside(dec, " — ", " – "); ok && why == "" {
			// "we're going with Envoy Gateway — the auth snippets become
			// SecurityPolicy"; "Leave the deposit out, though — my
			// customers …" leaves its "though" with the reason.
			dec, why = strings.TrimSuffix(strings.TrimSuffix(d, " though"), ","), r
		}
		if first, second := splitCompound(dec); second != "" {
			// "We go with Holm for the secondary outcomes, and all 24
			// participants stay in the main analysis": two decisions.
			out = e.appendDecision(st, out, m, first, "")
			return e.appendDecision(st, out, m, second, why)
		}
		if key, out2, ok := bareOptionRef(dec); ok {
			// "option 2", "A is out": a label names nothing by itself. What
			// the assistant laid out under it is the decision, or there is
			// none.
			o := st.optionNamed(key)
			if o == "" {
				return out
			}
			dec = o
			if out2 {
				dec = decidedAgainst + o
			}
		} else if name := st.namedThing(dec); name != "" {
			dec = name // "the lasagna" is the "Lasagna vegetariana" of the table
		} else if o := st.optionRef(dec); o != "" {
			dec += " — " + o // "Jana signed off on (b), with one change" says what (b) is
		}
	}
	titled := false
	if st.lineTitle != "" && reAnyAnaphor.MatchString(strings.ToLower(dec)) {
		// "we'll rip it out and use Radix Dialog" on the reply's line 1 is
		// about point 1: "Keyboard traps in modals: we'll rip it out …".
		d := underTitle(st.lineTitle, dec)
		dec, titled = d, d != dec
	}
	dec = truncate(sentenceCase(dec), e.opts.MaxDecisionLen)
	if len(dec) < 3 || dangling(dec) {
		return out // "the stay-lean plan was mostly", its reason cut off: a clause, not a decision
	}
	why = truncate(why, e.opts.MaxDecisionLen)
	w := contentWords(dec)
	for i := range out {
		if similar(st.words[i], w, out[i].Decision, dec) {
			if titled && out[i].MessageIndex == m.Index && strings.HasPrefix(out[i].Decision, st.lineTitle) {
				// "1. Yes, modals first. … we'll rip it out": the yes took
				// the point's title, which this says more of.
				out[i].Decision, out[i].Rationale, st.words[i] = dec, why, w
			}
			return out
		}
	}
	st.words = append(st.words, w)
	return append(out, conversation.Decision{
		Decision:     dec,
		Rationale:    why,
		Timestamp:    m.Timestamp,
		MessageIndex: m.Index,
		Origin:       conversation.OriginExtracted,
	})
}

// splitCompound splits a user's decision made of two clauses joined by ",
// and", each settling something of its own: the second a statement of how
// a thing will be (reCompanion: "…, and all 24 participants stay in the
// main analysis"), or, after "we're switching …", another change under
// way ("…, and raising $2.5M"), which takes the first one's subject.
// Otherwise second is "".
func splitCompound(dec string) (first, second string) {
	i := strings.Index(dec, ", and ")
	if i < 12 || strings.Contains(dec[i+len(", and "):], ", and ") {
		return dec, ""
	}
	lower := asciiLower(nil, dec)
	rest := lower[i+len(", and "):]
	if companion(rest) > 0 {
		return dec[:i], dec[i+len(", and "):]
	}
	if m := reWereDoing.FindSubmatchIndex(lower[:i]); m != nil {
		if w := firstWord(rest); underWay(w) {
			return dec[:i], dec[m[2]:m[3]] + " " + dec[i+len(", and "):]
		}
	}
	return dec, ""
}

// reWereDoing is a change under way with its subject: "we're switching",
// "I'm moving".
var reWereDoing = re(`^((?:we|i)(?:'re| are|'m| am)) [a-z]+ing `)

// appendAll adds each of the options a reply picked as a decision of its
// own ("1 and 2 are in").
func (e *Extractor) appendAll(st *decisionState, out []conversation.Decision, m *conversation.Message, picked []string) []conversation.Decision {
	for _, o := range picked {
		out = e.appendDecision(st, out, m, o, "")
	}
	return out
}

// sentenceCase capitalises a decision that opens with "we", "I", "let's"
// or an imperative verb ("switch", "use") in lower case, as it does once a
// lead ("ok, then") is cut off: "we'll go with full jitter" reads as a
// sentence again. Other first words stay as written: "pgx" or "uv" are
// names.
func sentenceCase(dec string) string {
	first, _, _ := strings.Cut(dec, " ")
	first = strings.ReplaceAll(first, "’", "'")
	switch {
	case first == "we", first == "i", strings.HasPrefix(first, "we'"), strings.HasPrefix(first, "i'"),
		first == "let's", first == "lets", first == "our", first == "my", first == "going", first == "no", imperativeVerbs.HasString(first),
		doneVerbs.HasString(first):
		return upperFirst(dec)
	}
	return dec
}

// truncate cuts s to at most n runes, at a word boundary where it can, marking
// the cut with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut, count := 0, 0
	for i := range s {
		if count == n-1 {
			cut = i
			break
		}
		count++
	}
	t := s[:cut]
	if j := strings.LastIndexByte(t, ' '); j > len(t)/2 {
		t = t[:j]
	}
	return strings.TrimRight(t, " ,;:.") + "…"
}

// similar reports near-identical decisions: most of their content words are
// shared, and no number differs ("the 5 year fix" then "the 2 year fix" is
// a change of mind, not a repeat).
func similar(wa, wb map[string]struct{}, a, b string) bool {
	if len(wa) == 0 || len(wb) == 0 {
		return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
	}
	inter := sharedWords(wa, wb)
	union := len(wa) + len(wb) - inter
	small := min(len(wa), len(wb))
	if !(float64(inter)/float64(union) >= 0.6 || small >= 3 && float64(inter)/float64(small) >= 0.85) {
		return false
	}
	// Numbers are read only for the few pairs that share their words.
	na, nb := numbers(a), numbers(b)
	return len(na) == 0 || len(nb) == 0 || slices.Equal(na, nb)
}

// numbers returns the numbers written in s, in order.
// A number is a word of digits, with decimal points and thousands commas
// ("10.4", "$1,000" and "$1000" are one), not digits inside a name
// ("db.r6g.large").
func numbers(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		f = strings.TrimRight(strings.TrimLeft(f, "$€£(~≈"), ".,;:!?)%")
		if f == "" || strings.Trim(f, "0123456789.,") != "" || f[0] < '0' || f[0] > '9' {
			continue
		}
		out = append(out, strings.ReplaceAll(f, ",", ""))
	}
	return out
}

func contentWords(s string) map[string]struct{} {
	m := map[string]struct{}{}
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'' || r >= utf8.RuneSelf)
	}) {
		if len(f) < 2 || words.IsStopword(f) {
			continue
		}
		m[string(words.Singular([]byte(f)))] = struct{}{}
	}
	return m
}

// asciiLower appends s with ASCII letters lowered: byte offsets stay those of
// s, which the patterns need to cut the original text.
func asciiLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
