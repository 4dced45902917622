package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/query"
)

// The tools' arguments. Descriptions (jsonschema tags) are what an agent
// reads to fill them; ranges, enums and defaults are added in register.

type searchInput struct {
	Query          string `json:"query,omitempty" jsonschema:"what to look for: words, \"exact phrase\", -excluded, a OR b, prefix*, field:value (e.g. decision:postgres, tool:Bash, project:ledger); may be omitted with a filter (conversation_id, type, project, source, role, since, until) to list what it keeps"`
	Group          *bool  `json:"group,omitempty" jsonschema:"true (default): the best hit of each conversation, with how many hits it had; false: every matching message, topic and decision (e.g. to list the places one conversation discusses something, with conversation_id)"`
	ConversationID string `json:"conversation_id,omitempty" jsonschema:"only inside this conversation (a conversation_id, or a hit's id); use it to find where in a long conversation something was said"`
	Type           string `json:"type,omitempty" jsonschema:"only hits of this kind"`
	Project        string `json:"project,omitempty" jsonschema:"only this project (as the project of a hit names it)"`
	Source         string `json:"source,omitempty" jsonschema:"only conversations read from this tool's files, e.g. claude-code, codex, chatgpt, claude-ai"`
	Role           string `json:"role,omitempty" jsonschema:"only messages written by this role"`
	Since          string `json:"since,omitempty" jsonschema:"only from this time on: a year (2025), a month (2025-06), a date (2025-01-31), a minute (2025-07-01T06:30, with a zone or in UTC), RFC 3339, or a duration back from now (36h, 7d, 2w, 3mo, 1y)"`
	Until          string `json:"until,omitempty" jsonschema:"only up to this time, inclusive: a year, month, date or minute alone takes in all of it (same forms as since)"`
	Limit          *int   `json:"limit,omitempty" jsonschema:"at most this many hits"`
	Offset         int    `json:"offset,omitempty" jsonschema:"skip this many hits: pass next_offset of the previous answer to page"`
	Sort           string `json:"sort,omitempty" jsonschema:"order of the hits (default relevance)"`
	IncludeHidden  bool   `json:"include_hidden,omitempty" jsonschema:"also search injected and procedural messages (system prompts, environment blocks), left out by default; a search that finds nothing says how many of them match"`
}

type getInput struct {
	ID          string `json:"id" jsonschema:"the conversation: a conversation_id from search_conversations, list_decisions or related_conversations (a hit's id works too, and opens at its message)"`
	Message     *int   `json:"message,omitempty" jsonschema:"index of the message to read around, from 0 (a hit's message_index); omit to start at the beginning"`
	Offset      *int   `json:"offset,omitempty" jsonschema:"page through a long conversation: the window starts at this message (pass next_message of the previous answer); instead of message"`
	Context     *int   `json:"context,omitempty" jsonschema:"with message (or a hit's id): how many messages before it the window starts; not with offset or char_offset, nor more than 0 with max_messages 1"`
	MaxMessages *int   `json:"max_messages,omitempty" jsonschema:"at most this many messages in the window; 1 reads the message whole, up to the answer's size"`
	CharOffset  *int   `json:"char_offset,omitempty" jsonschema:"read the message alone from this character of its texts on (0: from its start), up to the answer's size: how a message cut with a marker is read to its end (pass next_char_offset, or the char_offset of cut_messages)"`
}

type decisionsInput struct {
	Query   string `json:"query,omitempty" jsonschema:"only decisions matching this (words, \"phrases\", -excluded, OR, prefix*); omit to list the newest"`
	Project string `json:"project,omitempty" jsonschema:"only decisions of this project"`
	Since   string `json:"since,omitempty" jsonschema:"only decisions from this time on: a year (2025), a month (2025-06), a date (2025-01-31), a minute (2025-07-01T06:30, with a zone or in UTC), RFC 3339, or a duration back from now (7d, 2w, 3mo)"`
	Until   string `json:"until,omitempty" jsonschema:"only decisions up to this time, inclusive: a year, month, date or minute alone takes in all of it (same forms as since)"`
	Limit   *int   `json:"limit,omitempty" jsonschema:"at most this many decisions"`
	Offset  int    `json:"offset,omitempty" jsonschema:"skip this many decisions: pass next_offset of the previous answer to page"`
}

type topicsInput struct {
	Project string `json:"project,omitempty" jsonschema:"only topics of this project"`
	Limit   *int   `json:"limit,omitempty" jsonschema:"at most this many topics"`
	Offset  int    `json:"offset,omitempty" jsonschema:"skip this many topics: pass next_offset of the previous answer to page"`
}

type relatedInput struct {
	ID    string `json:"id" jsonschema:"the conversation to find relatives of: a conversation_id from another tool (a hit's id works too)"`
	Limit *int   `json:"limit,omitempty" jsonschema:"at most this many conversations"`
}

// searchOutput is the query Result shape, as the CLI's --json and the HTTP
// API give it, with what the MCP server cut to fit an agent's context.
type searchOutput struct {
	query.Result
	// Truncated is true when more hits match than are shown or a text was
	// cut.
	Truncated bool `json:"truncated"`
	// HiddenMatches counts, when nothing matched, the hidden messages that
	// would with include_hidden.
	HiddenMatches uint64 `json:"hidden_matches,omitempty" jsonschema:"when nothing matched: how many hidden (injected or procedural) messages match; pass include_hidden:true to see them"`
	// Indexing is true while the first pass over the roots is running:
	// conversations not yet read are missing.
	Indexing bool `json:"indexing,omitempty" jsonschema:"true while the first indexing pass over the user's files is running: conversations not read yet are missing, ask again shortly"`
}

// conversationOutput is a window of a conversation in the canonical model's
// terms.
type conversationOutput struct {
	ID        string                  `json:"id"`
	URI       string                  `json:"uri"`
	Title     string                  `json:"title"`
	Source    string                  `json:"source"`
	File      string                  `json:"file"`
	Date      time.Time               `json:"date,omitzero"`
	Updated   time.Time               `json:"updated,omitzero"`
	Project   string                  `json:"project,omitempty"`
	Model     string                  `json:"model,omitempty"`
	Topics    []string                `json:"topics,omitempty"`
	Tags      []string                `json:"tags,omitempty"`
	Summaries []string                `json:"summaries,omitempty"`
	Decisions []conversation.Decision `json:"decisions,omitempty"`
	// MoreTopics and MoreDecisions count those left out of this answer.
	MoreTopics    int `json:"more_topics,omitempty"`
	MoreDecisions int `json:"more_decisions,omitempty"`
	// MessageCount is the number of messages of the whole conversation.
	MessageCount int `json:"message_count"`
	// First and Last are the indexes of the first and last message of the
	// window (Last is First-1 when it holds none).
	First    int                    `json:"first"`
	Last     int                    `json:"last"`
	Messages []conversation.Message `json:"messages"`
	// NextMessage is where to read on (offset=next_message).
	NextMessage *int `json:"next_message,omitempty"`
	// Cut lists the messages of a window whose texts were cut, with where
	// to read on in each (message, char_offset).
	Cut []cutMessage `json:"cut_messages,omitempty" jsonschema:"the messages whose texts were cut, each with the char_offset to read the rest from: get_conversation(id, message, char_offset)"`
	// CharOffset, MessageChars and NextCharOffset are set when one message
	// is read alone: where this part starts, how many characters its texts
	// hold, and where the next part starts when this one did not reach its
	// end.
	CharOffset     int  `json:"char_offset,omitempty" jsonschema:"a message read alone: the character of its texts this part starts at"`
	MessageChars   int  `json:"message_chars,omitempty" jsonschema:"a message read alone: how many characters its texts hold (thinking, content, tool calls, tool results, in this order)"`
	NextCharOffset *int `json:"next_char_offset,omitempty" jsonschema:"a message read alone and not to its end: call again with the same message and char_offset=next_char_offset"`
	// FromIndex is true when the source file could not be read again and
	// the messages are the index's stored text (no tool structure).
	FromIndex bool `json:"from_index,omitempty"`
	Truncated bool `json:"truncated"`
}

// cutMessage is a message of a window whose texts were cut.
type cutMessage struct {
	Message    int `json:"message"`
	CharOffset int `json:"char_offset"`
}

type topicsOutput struct {
	Topics    []query.TopicCount `json:"topics"`
	Truncated bool               `json:"truncated"`
	// NextOffset is the offset of the next page, when there is one.
	NextOffset int `json:"next_offset,omitempty"`
	// Indexing: as in searchOutput.
	Indexing bool `json:"indexing,omitempty" jsonschema:"true while the first indexing pass over the user's files is running: conversations not read yet are missing, ask again shortly"`
}

// The checks of the arguments, run before the schema's (see addTool): each
// message says what is wrong and what would be right.

func (in *searchInput) check() error {
	if err := checkLimit("limit", in.Limit, mcpSearchDefault, mcpSearchMax); err != nil {
		return err
	}
	// As deep as the engine pages for the command line and the HTTP API:
	// an answer's size is bounded by limit, not by how deep it starts.
	if in.Offset < 0 || in.Offset > query.MaxOffset {
		return argError("offset %d out of range: 0 to %d (pass next_offset of the previous answer; deeper, narrow the search)", in.Offset, query.MaxOffset)
	}
	switch in.Type {
	case "", "conversation", "message", "topic", "decision":
	default:
		return argError("type %q: use conversation, message, topic or decision", in.Type)
	}
	if in.Role != "" && !conversation.Role(in.Role).Valid() {
		return argError("role %q: use user, assistant, system or tool", in.Role)
	}
	switch in.Sort {
	case "", query.SortRelevance, query.SortNewest, query.SortOldest:
	default:
		return argError("sort %q: use relevance, newest or oldest", in.Sort)
	}
	return checkWhen(in.Since, in.Until)
}

func (in *getInput) check() error {
	if strings.TrimSpace(in.ID) == "" {
		return argError("id is missing: give a conversation_id from search_conversations")
	}
	if in.Offset != nil && in.Message != nil {
		return argError("give message (read around it) or offset (read on from it), not both")
	}
	if in.Offset != nil && in.Context != nil {
		return argError("give message and context (read around it) or offset alone (read on from it), not both: context counts messages before message, offset starts the window itself")
	}
	if in.Offset != nil && *in.Offset < 0 {
		return argError("offset %d is negative: messages are numbered from 0 (pass next_message)", *in.Offset)
	}
	if in.Message != nil && *in.Message < 0 {
		return argError("message %d is negative: messages are numbered from 0 (a hit's message_index)", *in.Message)
	}
	if in.CharOffset != nil && *in.CharOffset < 0 {
		return argError("char_offset %d is negative: characters are counted from 0 (pass next_char_offset)", *in.CharOffset)
	}
	if in.CharOffset != nil && in.Context != nil {
		return argError("char_offset reads on within one message, which has no messages before it: give message and char_offset without context")
	}
	if in.Context != nil && *in.Context > 0 && in.MaxMessages != nil && *in.MaxMessages == 1 {
		return argError("context %d with max_messages 1: a window of one message holds none before it; give max_messages %d or more, or leave out context", *in.Context, *in.Context+1)
	}
	if in.Context != nil && (*in.Context < 0 || *in.Context > mcpWindowMax-1) {
		return argError("context %d out of range: 0 to %d messages before message", *in.Context, mcpWindowMax-1)
	}
	return checkLimit("max_messages", in.MaxMessages, mcpWindowDefault, mcpWindowMax)
}

func (in *decisionsInput) check() error {
	if err := checkLimit("limit", in.Limit, mcpDecisionsDefault, mcpDecisionsMax); err != nil {
		return err
	}
	if err := checkListOffset(in.Offset); err != nil {
		return err
	}
	return checkWhen(in.Since, in.Until)
}

func (in *topicsInput) check() error {
	if err := checkLimit("limit", in.Limit, mcpTopicsDefault, mcpTopicsMax); err != nil {
		return err
	}
	return checkListOffset(in.Offset)
}

// checkListOffset bounds a listing's offset as search's: the engine
// collects every entry before the page.
func checkListOffset(offset int) error {
	if offset < 0 || offset > query.MaxOffset {
		return argError("offset %d out of range: 0 to %d (pass next_offset of the previous answer; deeper, narrow the listing)", offset, query.MaxOffset)
	}
	return nil
}

func (in *relatedInput) check() error {
	if strings.TrimSpace(in.ID) == "" {
		return argError("id is missing: give a conversation_id from search_conversations")
	}
	return checkLimit("limit", in.Limit, mcpRelatedDefault, mcpRelatedMax)
}

// checkLimit checks a count argument; nil stands for the default.
func checkLimit(name string, v *int, def, hi int) error {
	if v != nil && (*v < 1 || *v > hi) {
		return argError("%s %d out of range: 1 to %d (default %d)", name, *v, hi, def)
	}
	return nil
}

// orDefault returns *v, or def when v is nil.
func orDefault(v *int, def int) int {
	if v == nil {
		return def
	}
	return *v
}

// checkWhen checks that since and until are times query.ParseWhen reads.
func checkWhen(since, until string) error {
	now := time.Now()
	if _, err := query.ParseWhen(since, now); err != nil {
		return argError("since: %v", err)
	}
	if _, err := query.ParseWhen(until, now); err != nil {
		return argError("until: %v", err)
	}
	return nil
}

func (t *tools) search(ctx context.Context, in *searchInput) (string, searchOutput, error) {
	var out searchOutput
	since, until, err := t.times(in.Since, in.Until)
	if err != nil {
		return "", out, err
	}
	q := strings.TrimSpace(in.Query)
	r := query.Request{Query: q, Types: one(in.Type), Projects: one(in.Project), Sources: one(in.Source), Roles: one(in.Role),
		Since: since, Until: until, Limit: orDefault(in.Limit, mcpSearchDefault), Offset: in.Offset, Sort: in.Sort,
		ExcludeHidden: !in.IncludeHidden, Group: in.Group == nil || *in.Group}
	id := strings.TrimSpace(in.ConversationID)
	if id != "" {
		r.Conversations = []string{id} // a hit's id too: the query names its conversation
	}
	if err := r.Validate(); err != nil {
		return "", out, argError("%v", err)
	}
	// As the HTTP API does: a mistyped source is not an empty answer.
	if err := all.UnknownSource(ctx, indexer.SourceCounts(t.b.Stats), r.Sources); err != nil {
		return "", out, argError("%v", err)
	}
	if _, err := query.Parse(q); err != nil {
		return "", out, backendError(err, "")
	}
	// Asked before the query: an answer read during the first pass says so
	// even if the pass ends meanwhile.
	out.Indexing = t.opts.Indexing(ctx)
	res, err := t.b.Search(ctx, r)
	if err != nil {
		// The id, for a hit's id past its conversation's end: worded as
		// get_conversation words it.
		return "", out, backendError(engineError(err, q), id)
	}
	out.Result = *res
	if res.Total == 0 && r.ExcludeHidden {
		out.HiddenMatches = t.hiddenMatches(ctx, r)
	}
	out.Truncated = trimHits(out.Hits)
	text := fitHits(&out, func() string {
		// As the engine pages for the HTTP API and the command line, from
		// the hits this answer shows: deeper than query.MaxOffset, more
		// hits but no next_offset (narrow the search instead).
		var more bool
		out.NextOffset, more = query.NextOffset(r, res, len(out.Hits))
		out.Truncated = out.Truncated || more
		return indexingNote(out.Indexing, t.renderSearch(ctx, &out, in.Offset, in, r.Group))
	})
	return text, out, nil
}

// hiddenMatches counts the hidden messages r would find with
// include_hidden, for an answer that found nothing: an agent told only "no
// match" concludes nothing was said, when a tool output or an injected
// block said it.
func (t *tools) hiddenMatches(ctx context.Context, r query.Request) uint64 {
	r.ExcludeHidden, r.Group, r.Offset, r.Limit, r.NoHighlight = false, false, 0, 1, true
	res, err := t.b.Search(ctx, r)
	if err != nil {
		t.log.Debug("count hidden matches", "query", r.Query, "err", err)
		return 0
	}
	if res.Relaxed {
		return 0 // none has every word either
	}
	// Nothing visible matched, so whatever matches now is hidden.
	return res.Total
}

// fitHits renders out, dropping its last hits until the answer fits
// mcpAnswerMax: a page of long hits would overflow an agent's context. The
// answer grows with its hits, so the most that fit are found by halving
// (each try renders and encodes the whole answer), keeping at least one.
func fitHits(out *searchOutput, render func() string) string {
	all := out.Hits
	text, _ := fitFirst(len(all), func(n int) (string, bool) {
		if n < len(all) {
			out.Hits, out.Truncated = all[:n], true
		}
		text := render()
		return text, answerSize(text, out) <= mcpAnswerMax
	})
	return text
}

// answerSize is how many bytes an answer takes on the wire: its text and
// its structured content in the result the SDK sends, in its JSON-RPC
// frame. Measured encoded, not by the text's length: encoding/json writes
// <, > and & as \u003c (six bytes for one) and control characters alike,
// so a text full of them is several times longer on the wire.
//
// The two are encoded once each and the result's frame counted, rather
// than the result encoded whole: fitHits asks this several times an answer,
// and encoding the result again would copy and re-check the structured
// content each time (TestAnswerSizeIsTheSDKs pins the frame).
func answerSize(text string, out any) int {
	data, err := json.Marshal(out)
	if err != nil {
		return len(text) // the handler reports the failure to encode
	}
	t, _ := json.Marshal(text) // a string always encodes
	return len(t) + len(data) + toolResultFrame + rpcFrame
}

// toolResultFrame is what a tool's result with one text adds around the
// text and the structured content, as the SDK encodes it.
const toolResultFrame = len(`{"content":[{"type":"text","text":}],"structuredContent":}`)

// wireSize is the size of a JSON-RPC answer with result, as the SDK
// encodes it.
func wireSize(result any) int {
	b, err := json.Marshal(result)
	if err != nil {
		return 0 // the SDK reports the failure to encode
	}
	return len(b) + rpcFrame
}

// rpcFrame is the JSON-RPC frame around a result, with an id of a few
// characters: {"jsonrpc":"2.0","id":…,"result":…}.
const rpcFrame = len(`{"jsonrpc":"2.0","id":,"result":}`) + 16

func (t *tools) getConversation(ctx context.Context, in *getInput) (string, conversationOutput, error) {
	var out conversationOutput
	id := strings.TrimSpace(in.ID)
	c, fromIndex, err := t.b.Load(ctx, id)
	if err != nil {
		return "", out, t.idError(ctx, err, id)
	}
	if err := query.GoneHit(c, id); err != nil {
		return "", out, argError("%v", err)
	}
	if msg := query.HitMessage(c, id); msg >= 0 && in.Message == nil && in.Offset == nil {
		// A hit's own id instead of its conversation_id: read it as meant,
		// at the hit's message.
		in.Message = &msg
	}
	if in.Context != nil && in.Message == nil {
		// Checked once a hit's id has given its message.
		return "", out, argError("context counts messages before message: give message too (a hit's message_index), or a hit's id")
	}
	n := len(c.Messages)
	focus := -1
	switch {
	case in.Message != nil:
		focus = *in.Message
	case in.Offset != nil:
		focus = *in.Offset
		in.Context = new(0) // the window starts at offset (context is refused with it)
	}
	if focus >= n {
		return "", out, argError("conversation %s has %d messages (0 to %d); there is no message %d", c.ID, n, n-1, focus)
	}
	if in.CharOffset != nil && focus < 0 {
		return "", out, argError("char_offset counts within one message: give message too (the index of the message cut)")
	}
	if (in.CharOffset != nil || orDefault(in.MaxMessages, mcpWindowDefault) == 1) && n > 0 {
		return readMessage(c, max(focus, 0), orDefault(in.CharOffset, 0), in.Message != nil, fromIndex)
	}
	if in.Offset != nil {
		focus = -1 // a page, not a message asked for
		if *in.Offset > 0 {
			in.Message = in.Offset
		}
	}
	// The largest window that fits an agent's context.
	var text string
	out, alone := fitWindow(c, in, mcpWindowBudget, fromIndex, func(o *conversationOutput, budget int) int {
		text = renderConversation(o, focus, budget*2)
		return answerSize(text, o)
	})
	if alone {
		return readMessage(c, orDefault(in.Message, 0), 0, focus >= 0, fromIndex)
	}
	return text, out, nil
}

// fitWindow returns the largest window of c that in asks for whose answer
// fits mcpAnswerMax: from budget characters of messages, shrunk in
// proportion to the overshoot; without messages, a smaller head (see
// conversationHead). size renders a window's answer, with that budget, and
// measures it. alone says that the fewest messages are still too big (or
// a head too heavy beside them): the answer is then one message read
// alone (readMessage), its text and the head cut until it fits, with where
// to read on.
func fitWindow(c *conversation.Conversation, in *getInput, budget int, fromIndex bool, size func(out *conversationOutput, budget int) int) (out conversationOutput, alone bool) {
	for level := 0; ; {
		out = window(c, in, budget, level)
		out.FromIndex = fromIndex
		n := size(&out, budget)
		switch {
		case n <= mcpAnswerMax:
			return out, false
		case len(out.Messages) > 1 && budget >= 1000:
			budget = shrink(budget, n)
		case len(c.Messages) > 0:
			return out, true
		case level < headLevels:
			level++
		default:
			return out, false
		}
	}
}

// shrink returns the text budget to try next after one that gave an
// answer of size bytes, over mcpAnswerMax: smaller in proportion to the
// overshoot (escaped text weighs several bytes a character on the wire, so
// halving would go from too many messages to too few), and by a tenth at
// least.
func shrink(budget, size int) int {
	return min(budget*9/10, budget*(mcpAnswerMax-2000)/size)
}

// mcpMessageChars is the most characters of one message read alone: its
// text comes twice in an answer (text and structured content), which
// holds mcpAnswerMax.
const mcpMessageChars = 36000

// mcpMessageCharsMin is the fewest characters of a message read alone
// shown beside a whole head: fewer would fit, the head is made smaller
// (see conversationHead).
const mcpMessageCharsMin = 2000

// readMessage answers get_conversation for message i of c alone, from
// character from of its texts on: as much as the answer holds, with where
// the next part starts. focus says whether the message was asked for.
func readMessage(c *conversation.Conversation, i, from int, focus, fromIndex bool) (string, conversationOutput, error) {
	size := 0
	for _, p := range messageTexts(&c.Messages[i]) {
		size += utf8.RuneCountInString(*p)
	}
	if from > 0 && from >= size {
		return "", conversationOutput{}, argError("message %d of %s has %d characters; char_offset %d is past its end (0 to %d)", i, c.ID, size, from, max(size-1, 0))
	}
	mark := -1
	if focus {
		mark = i
	}
	var text string
	var out conversationOutput
	// The most characters that fit: shrink in proportion to the overshoot
	// until the answer fits; when fewer than mcpMessageCharsMin would
	// have to go beside the head, a smaller head, from the most
	// characters again (the message is what was asked for); with the
	// smallest head, down to 100.
	for n, level := mcpMessageChars, 0; ; {
		least := mcpMessageCharsMin
		if level == headLevels {
			least = 100
		}
		h := conversationHead(c, level)
		m, total, next := sliceMessage(c.Messages[i], from, n)
		h.MessageCount, h.First, h.Last = len(c.Messages), i, i
		h.Messages = []conversation.Message{m}
		h.CharOffset, h.MessageChars, h.FromIndex = from, total, fromIndex
		if next >= 0 {
			h.NextCharOffset = &next
		}
		if i+1 < len(c.Messages) {
			h.NextMessage = new(i + 1)
		}
		h.Truncated = len(c.Messages) > 1 || h.headCut || from > 0 || next >= 0
		out = h.conversationOutput
		text = renderConversation(&out, mark, mcpAnswerMax)
		got := answerSize(text, &out)
		switch {
		case got <= mcpAnswerMax:
			return text, out, nil
		case n > least:
			n = max(min(n-100, n*(mcpAnswerMax-2000)/got), least)
		case level < headLevels:
			n, level = mcpMessageChars, level+1
		default:
			return text, out, nil
		}
	}
}

// window builds the answer of get_conversation with at most budget
// characters of messages.
func window(c *conversation.Conversation, in *getInput, budget, level int) conversationOutput {
	size := orDefault(in.MaxMessages, mcpWindowDefault)
	n := len(c.Messages)
	start, focus := 0, -1
	if in.Message != nil {
		focus = *in.Message
		// The message asked for stays in the window whatever context says.
		start = max(focus-min(orDefault(in.Context, mcpContextDefault), size-1), 0)
	}
	h := conversationHead(c, level)
	h.MessageCount = n
	// The anchor (the message asked for, or the start) first, then the
	// messages before it back to start, then those after it: when the
	// budget runs out, the edges of the window go.
	anchor := max(focus, start)
	h.Messages = []conversation.Message{}
	from, to := anchor, anchor-1
	if n > 0 {
		take := func(i int) (conversation.Message, bool) {
			m, resume := clipMessage(c.Messages[i])
			cost := messageSize(&m)
			if cost > budget && i != anchor {
				return m, false
			}
			budget -= cost
			if resume >= 0 {
				h.Truncated = true
				h.Cut = append(h.Cut, cutMessage{Message: i, CharOffset: resume})
			}
			return m, true
		}
		var before, after []conversation.Message
		m, _ := take(anchor)
		after = append(after, m)
		to = anchor
		for i := anchor - 1; i >= start && len(before)+len(after) < size; i-- {
			m, ok := take(i)
			if !ok {
				break
			}
			before, from = append(before, m), i
		}
		for i := anchor + 1; i < n && len(before)+len(after) < size; i++ {
			m, ok := take(i)
			if !ok {
				break
			}
			after, to = append(after, m), i
		}
		slices.Reverse(before)
		h.Messages = append(before, after...)
		slices.SortFunc(h.Cut, func(a, b cutMessage) int { return a.Message - b.Message })
	}
	h.First = from
	h.Last = to
	if h.Last < n-1 {
		next := h.Last + 1
		h.NextMessage = &next
	}
	if h.First > 0 || h.Last < n-1 || h.headCut {
		h.Truncated = true
	}
	return h.conversationOutput
}

func (t *tools) decisions(ctx context.Context, in *decisionsInput) (string, searchOutput, error) {
	var out searchOutput
	since, until, err := t.times(in.Since, in.Until)
	if err != nil {
		return "", out, err
	}
	q := strings.TrimSpace(in.Query)
	if _, err := query.Parse(q); err != nil {
		return "", out, backendError(err, "")
	}
	out.Indexing = t.opts.Indexing(ctx)
	res, err := t.b.Decisions(ctx, query.DecisionsRequest{Query: q, Projects: one(in.Project), Since: since, Until: until,
		Limit: orDefault(in.Limit, mcpDecisionsDefault), Offset: in.Offset})
	if err != nil {
		return "", out, backendError(engineError(err, q), "")
	}
	out.Result = *res
	out.Truncated = trimHits(out.Hits) || uint64(in.Offset+len(out.Hits)) < out.Total
	text := fitHits(&out, func() string {
		// Set again for each fit tried: fewer hits shown, the next page
		// starts sooner. Decisions are a search of single hits at
		// in.Offset.
		out.NextOffset, _ = query.NextOffset(query.Request{Offset: in.Offset}, res, len(out.Hits))
		return indexingNote(out.Indexing, t.renderDecisions(ctx, &out, in))
	})
	return text, out, nil
}

func (t *tools) topics(ctx context.Context, in *topicsInput) (string, topicsOutput, error) {
	var out topicsOutput
	limit := orDefault(in.Limit, mcpTopicsDefault)
	out.Indexing = t.opts.Indexing(ctx)
	// One more than asked tells whether there are more.
	topics, err := t.b.Topics(ctx, query.TopicsRequest{Projects: one(in.Project), Limit: limit + 1, Offset: in.Offset})
	if err != nil {
		return "", out, backendError(engineError(err, ""), "")
	}
	more := len(topics) > limit
	topics = topics[:min(len(topics), limit)]
	// A topic's name is bounded as in a conversation's head: explicit
	// topics may be whole sentences.
	var cut bool
	for i := range topics {
		var c bool
		topics[i].Name, c = clip(topics[i].Name, mcpNameMax)
		cut = cut || c
	}
	// The most topics that fit mcpAnswerMax; the next page starts after
	// them.
	text, _ := fitFirst(len(topics), func(n int) (string, bool) {
		out.Topics = topics[:n]
		if out.Topics == nil {
			out.Topics = []query.TopicCount{}
		}
		rest := more || n < len(topics)
		out.Truncated, out.NextOffset = cut || rest, 0
		next := in.Offset + n
		if rest && next <= query.MaxOffset {
			out.NextOffset = next
		}
		text := indexingNote(out.Indexing, t.renderTopics(ctx, &out, in, rest && next > query.MaxOffset))
		return text, answerSize(text, &out) <= mcpAnswerMax
	})
	return text, out, nil
}

// fitFirst finds the most of n entries an answer holds: try(k) builds the
// answer of the first k and says whether it fits. The answer grows with
// its entries, so halving finds them (each try renders and encodes the
// whole answer); at least one is kept. It returns the answer built last,
// which is the one kept, and how many entries it holds.
func fitFirst(n int, try func(k int) (string, bool)) (string, int) {
	text, ok := try(n)
	if ok || n <= 1 {
		return text, n
	}
	lo, hi := 1, n-1 // the answer: lo fits, or is the one kept anyway
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if _, ok := try(mid); ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	text, _ = try(lo)
	return text, lo
}

func (t *tools) related(ctx context.Context, in *relatedInput) (string, searchOutput, error) {
	var out searchOutput
	id := strings.TrimSpace(in.ID)
	limit := orDefault(in.Limit, mcpRelatedDefault)
	out.Indexing = t.opts.Indexing(ctx)
	res, err := t.b.Related(ctx, id, limit)
	if err != nil {
		return "", out, t.idError(ctx, err, id)
	}
	out.Result = *res
	// Related looks at a bounded number of candidates: a full page means
	// there may be more.
	out.Truncated = trimHits(out.Hits) || len(out.Hits) >= limit
	text := fitHits(&out, func() string { return indexingNote(out.Indexing, renderRelated(id, &out)) })
	return text, out, nil
}

// resourcesPage is how many conversations one resources/list page names.
const resourcesPage = 50

// listResources answers resources/list: the conversations, newest first,
// resourcesPage at a time; the cursor is the offset of the next page.
func (t *tools) listResources(ctx context.Context, req *sdk.ListResourcesRequest) (*sdk.ListResourcesResult, error) {
	offset := 0
	if req.Params != nil && req.Params.Cursor != "" {
		n, err := strconv.Atoi(req.Params.Cursor)
		if err != nil || n < 0 || n > query.MaxOffset {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("cursor %q: pass the nextCursor of the previous page", req.Params.Cursor)}
		}
		offset = n
	}
	res, err := t.b.Search(ctx, query.Request{Types: []string{indexer.KindConversation}, Sort: query.SortNewest,
		Limit: resourcesPage, Offset: offset, NoHighlight: true})
	if err != nil {
		return nil, err
	}
	all := make([]*sdk.Resource, 0, len(res.Hits))
	for i := range res.Hits {
		h := &res.Hits[i]
		// Bounded as a conversation's head bounds them: titles and
		// projects come whole from the files.
		title, _ := clip(h.Title, mcpFieldMax)
		desc, _ := clip(where(h), mcpFieldMax)
		all = append(all, &sdk.Resource{
			URI:         ConversationURI(h.ConversationID),
			Name:        h.ConversationID,
			Title:       title,
			MIMEType:    "text/markdown",
			Description: desc,
		})
	}
	more := len(res.Hits) == resourcesPage && uint64(offset+len(res.Hits)) < res.Total
	// The most conversations that fit mcpAnswerMax; the next page starts
	// after them.
	out := &sdk.ListResourcesResult{}
	fitFirst(len(all), func(n int) (string, bool) {
		out.Resources, out.NextCursor = all[:n], ""
		if next := offset + n; (more || n < len(all)) && next <= query.MaxOffset {
			out.NextCursor = strconv.Itoa(next)
		}
		return "", wireSize(out) <= mcpAnswerMax
	})
	return out, nil
}

// readConversation serves convsearch://conversation/{id} as Markdown: the
// conversation from its first message, or, for a hit's id (m/ID/N), from a
// few messages before the hit's; as much as fits an agent's context, with
// where to read on. Everything after the prefix is the id, slashes
// included, URL-escaped or not.
func (t *tools) readConversation(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := strings.CutPrefix(uri, ConversationURIPrefix)
	if u, err := url.PathUnescape(id); err == nil {
		id = u // else a stray % is part of the id
	}
	if id = strings.TrimSpace(id); !ok || id == "" {
		return nil, resourceNotFound(uri, "no conversation id after "+ConversationURIPrefix+": give a conversation_id from search_conversations (or a hit's id)")
	}
	c, fromIndex, err := t.b.Load(ctx, id)
	if errors.Is(err, query.ErrNotFound) {
		return nil, resourceNotFound(uri, t.idError(ctx, err, id).Error())
	}
	if err != nil {
		return nil, backendError(err, id)
	}
	if err := query.GoneHit(c, id); err != nil {
		return nil, resourceNotFound(uri, err.Error())
	}
	in := &getInput{MaxMessages: new(len(c.Messages) + 1)}
	if msg := query.HitMessage(c, id); msg >= 0 {
		in.Message = &msg
	}
	text := func(s string) *sdk.ReadResourceResult {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: s}}}
	}
	var res *sdk.ReadResourceResult
	_, alone := fitWindow(c, in, mcpResourceBudget, fromIndex, func(o *conversationOutput, budget int) int {
		res = text(renderConversation(o, -1, budget))
		return wireSize(res)
	})
	if alone {
		// As get_conversation: the message read alone, cut until it
		// fits (its answer, with the structured content beside the
		// text, is the larger).
		md, _, err := readMessage(c, orDefault(in.Message, 0), 0, false, fromIndex)
		return text(md), err
	}
	return res, nil
}

// complete suggests conversation ids for the {id} of the conversation
// resource template, so a client can offer them as the user types: ids
// starting with what was typed, then conversations whose title or topics
// match it, at most 100; with nothing typed, the newest. Anything else
// (there are no prompts) gets no suggestion.
func (t *tools) complete(ctx context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
	res := &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{Values: []string{}}}
	p := req.Params
	if p == nil || p.Ref == nil || p.Ref.Type != "ref/resource" || p.Ref.URI != ConversationURIPrefix+"{id}" || p.Argument.Name != "id" {
		return res, nil
	}
	typed := strings.TrimSpace(p.Argument.Value)
	var queries []query.Request
	if typed == "" {
		queries = append(queries, query.Request{Sort: query.SortNewest})
	} else {
		if !strings.ContainsAny(typed, " \t\"():*~|") {
			queries = append(queries, query.Request{Query: "id:" + typed + "*"})
		}
		// The words typed, the last one whole or unfinished (a prefix alone
		// would miss the stemmed form of a whole word).
		words := strings.FieldsFunc(typed, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if n := len(words); n > 0 {
			words[n-1] = fmt.Sprintf("(%s OR %s*)", words[n-1], words[n-1])
			queries = append(queries, query.Request{Query: strings.Join(words, " ")})
		}
	}
	seen := map[string]bool{}
	var total uint64
	for _, r := range queries {
		r.Types, r.Limit, r.NoHighlight = []string{"conversation"}, 100, true
		found, err := t.b.Search(ctx, r)
		if err != nil {
			t.log.Debug("completion", "typed", typed, "err", err)
			continue
		}
		total = max(total, found.Total)
		for _, h := range found.Hits {
			if !seen[h.ConversationID] && len(res.Completion.Values) < 100 {
				seen[h.ConversationID] = true
				res.Completion.Values = append(res.Completion.Values, h.ConversationID)
			}
		}
	}
	res.Completion.Total = max(int(total), len(res.Completion.Values))
	res.Completion.HasMore = res.Completion.Total > len(res.Completion.Values)
	return res, nil
}

// ConversationURI is the MCP resource URI of conversation id.
func ConversationURI(id string) string {
	return ConversationURIPrefix + url.PathEscape(id)
}

// headOutput is a conversationOutput being built, with whether its head
// (title, summaries, topics, tags, decisions) had to be cut.
type headOutput struct {
	conversationOutput
	headCut bool
}

// headLevels is how many times a head can be made smaller (see
// conversationHead) for an answer to fit.
const headLevels = 6

// conversationHead fills what an output says of c besides its messages.
// At level 0 it holds what the mcp*Shown and mcp*Max constants say; each
// level above halves how many topics, tags, summaries and decisions it
// lists and how long each text is, for an answer where even one message
// does not fit beside the head (texts full of what JSON escapes).
func conversationHead(c *conversation.Conversation, level int) headOutput {
	var h headOutput
	cut := func(s string, n int) string {
		s, c := clip(s, max(n>>level, 20))
		h.headCut = h.headCut || c
		return s
	}
	shown := func(n int) int { return n >> level }
	h.conversationOutput = conversationOutput{
		ID: c.ID, URI: ConversationURI(c.ID), Title: cut(c.Title, mcpFieldMax), Source: c.Source, File: c.File,
		Date: c.Date, Updated: c.Updated, Project: c.Project, Model: c.Model,
	}
	// The head is bounded whatever the file holds (hundreds of topics, long
	// decisions), so that messages always fit beside it.
	var more int
	h.Tags, more = firstN(c.Tags, shown(mcpNamesShown), func(s string) string { return cut(s, mcpNameMax) })
	h.headCut = h.headCut || more > 0
	h.Topics, h.MoreTopics = firstN(c.TopicNames(), shown(mcpNamesShown), func(s string) string { return cut(s, mcpNameMax) })
	h.Summaries, more = firstN(c.Summaries, shown(mcpSummariesShown), func(s string) string { return cut(s, mcpFieldMax) })
	h.headCut = h.headCut || more > 0
	h.Decisions, h.MoreDecisions = firstN(c.Decisions, shown(mcpDecisionsShown), func(d conversation.Decision) conversation.Decision {
		d.Decision = cut(d.Decision, mcpHeadFieldMax)
		d.Rationale = cut(d.Rationale, mcpHeadFieldMax)
		return d
	})
	h.headCut = h.headCut || h.MoreTopics > 0 || h.MoreDecisions > 0
	return h
}

// firstN returns f of the first n of all, and how many it left out.
func firstN[T any](all []T, n int, f func(T) T) (out []T, more int) {
	for _, v := range all[:min(n, len(all))] {
		out = append(out, f(v))
	}
	return out, max(len(all)-n, 0)
}

// ownTexts returns m with its own copies of the tool calls and results,
// whose texts can then be cut without touching the conversation's.
func ownTexts(m conversation.Message) conversation.Message {
	m.ToolCalls = slices.Clone(m.ToolCalls)
	m.ToolResults = slices.Clone(m.ToolResults)
	return m
}

// messageTexts returns m's texts in the order an answer shows them:
// thinking, content, each tool call's arguments, each tool result. A
// char_offset counts characters through them in this order.
func messageTexts(m *conversation.Message) []*string {
	texts := []*string{&m.Thinking, &m.Content}
	for i := range m.ToolCalls {
		texts = append(texts, &m.ToolCalls[i].Arguments)
	}
	for i := range m.ToolResults {
		texts = append(texts, &m.ToolResults[i].Content)
	}
	return texts
}

// clipMessage cuts m's long texts. resume is the char_offset of the first
// character cut, where reading the message alone goes on; -1 when nothing
// was cut.
func clipMessage(m conversation.Message) (_ conversation.Message, resume int) {
	m = ownTexts(m)
	resume = -1
	at := 0 // characters of the texts before this one
	for _, p := range messageTexts(&m) {
		limit := mcpToolTextMax
		if p == &m.Content && !m.Hidden {
			limit = mcpContentMax
		}
		size := utf8.RuneCountInString(*p)
		var kept int
		var cut bool
		if *p, kept, cut = clipKept(*p, limit); cut && resume < 0 {
			resume = at + kept
		}
		at += size
	}
	return m, resume
}

// sliceMessage returns m with only the characters [from, from+n) of its
// texts (see messageTexts), each text cut with markers saying how much
// comes before and after; total is how many characters its texts hold,
// and next where the following part starts (-1: none follows).
func sliceMessage(m conversation.Message, from, n int) (_ conversation.Message, total, next int) {
	m = ownTexts(m)
	to := from + n
	for _, p := range messageTexts(&m) {
		size := utf8.RuneCountInString(*p)
		lo, hi := min(max(from-total, 0), size), min(max(to-total, 0), size)
		if lo > 0 || hi < size {
			r := []rune(*p)
			var b strings.Builder
			if lo > 0 {
				fmt.Fprintf(&b, "[… %d characters before this part]", lo)
			}
			if hi > lo {
				if lo > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(string(r[lo:hi]))
			}
			if hi < size {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "[… %d more characters cut]", size-hi)
			}
			*p = b.String()
		}
		total += size
	}
	next = -1
	if to < total {
		next = to
	}
	return m, total, next
}

// messageSize is roughly how many characters m takes in an answer.
func messageSize(m *conversation.Message) int {
	n := len(m.Content) + len(m.Thinking) + 100
	for _, tc := range m.ToolCalls {
		n += len(tc.Name) + len(tc.Arguments) + 20
	}
	for _, tr := range m.ToolResults {
		n += len(tr.Content) + 20
	}
	return n + 50*len(m.Attachments)
}

// trimHits cuts the long texts of hits in place and drops what an agent
// cannot use (sort keys: the tools page with offset), reporting whether it
// cut anything.
func trimHits(hits []query.Hit) bool {
	var cutAny bool
	cut := func(s string) string {
		s, c := clip(s, mcpFieldMax)
		cutAny = cutAny || c
		return s
	}
	for i := range hits {
		h := &hits[i]
		h.Sort = nil
		h.Title = cut(h.Title)
		h.Text = cut(h.Text)
		h.Rationale = cut(h.Rationale)
		// Plain snippets only: HTML-escaped code reaches an agent mangled.
		h.Fragments = nil
		if len(h.Snippets) > mcpFragmentsMax {
			h.Snippets, cutAny = h.Snippets[:mcpFragmentsMax], true
		}
		for j, sn := range h.Snippets {
			var c bool
			h.Snippets[j], c = sn.Clip(mcpFieldMax)
			cutAny = cutAny || c
		}
	}
	return cutAny
}

// times reads since and until as query.ParseWhen and ParseUntil do.
func (t *tools) times(since, until string) (s, u time.Time, err error) {
	now := t.opts.Now()
	if s, err = query.ParseWhen(since, now); err != nil {
		return s, u, argError("since: %v", err)
	}
	if u, err = query.ParseUntil(until, now); err != nil {
		return s, u, argError("until: %v", err)
	}
	if !s.IsZero() && !u.IsZero() && u.Before(s) {
		return s, u, argError("until (%s) is before since (%s)", u.Format(time.RFC3339), s.Format(time.RFC3339))
	}
	return s, u, nil
}

// one turns an optional filter value into a filter list.
func one(v string) []string {
	if v = strings.TrimSpace(v); v == "" {
		return nil
	}
	return []string{v}
}
