package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/internal/golden"

	"github.com/convsearch/convsearch/conversation"
)

// turn is one message of a test conversation: role "u", "a", "t" (tool) or
// "h" (a hidden user message).
type turn struct{ role, text string }

func convOf(turns ...turn) *conversation.Conversation {
	c := &conversation.Conversation{ID: "t", Title: "test"}
	for i, tu := range turns {
		m := conversation.Message{Index: i, Content: tu.text}
		switch tu.role {
		case "u":
			m.Role = conversation.RoleUser
		case "a":
			m.Role = conversation.RoleAssistant
		case "t":
			m.Role = conversation.RoleTool
		case "h":
			m.Role, m.Hidden = conversation.RoleUser, true
		}
		c.Messages = append(c.Messages, m)
	}
	return c
}

// TestSelfContainedDecisions covers the decisions the issue reports missed or
// recorded as a bare "We'll keep that", and the traps around them. Every
// decision must say what was decided without its neighbours.
func TestSelfContainedDecisions(t *testing.T) {
	type want struct {
		idx       int
		text, why string // substrings of the decision and of its rationale
	}
	tests := []struct {
		name  string
		turns []turn
		want  []want
	}{
		{"we'll report", []turn{{"a", "We'll report the BCa interval in the paper because it has better coverage for skewed data."}},
			[]want{{0, "report the BCa interval in the paper", "better coverage"}}},
		{"then we go with", []turn{
			{"a", "convsearch keeps the index local; grep needs no setup."},
			{"u", "Local-only was the requirement. Then we go with convsearch."}},
			[]want{{1, "We go with convsearch", ""}}},
		{"accepted plan", []turn{
			{"a", "Plan: run both brokers in parallel, mirror publishes with a dual-writer, and move consumers one by one.\n\nThe dual-writer writes to the new broker first."},
			{"u", "Yes."}},
			[]want{{1, "run both brokers in parallel, mirror publishes with a dual-writer", ""}}},
		{"here's the plan, accepted", []turn{
			{"a", "Here's the plan: move the consumers first, then cut producers over behind a flag."},
			{"u", "Yes, let's do that."}},
			[]want{{1, "Move the consumers first, then cut producers over behind a flag", ""}}},
		{"keep that resolves to the statement before", []turn{
			{"u", "Invoices round once on the total. We'll keep that, because finance reconciles against the old totals."}},
			[]want{{0, "Invoices round once on the total", "finance reconciles"}}},
		{"go with that resolves to the user's own summary", []turn{
			{"a", "No: with ordering, a failed event must block the ones after it. Use one FIFO queue per customer and hold the rest while the head is in backoff."},
			{"u", "So per-customer FIFO, backoff on the head, pause after 3 days. We'll go with that."}},
			[]want{{1, "per-customer FIFO, backoff on the head, pause after 3 days", ""}}},
		{"go with that after thanks is no summary", []turn{
			{"a", "I recommend keeping audit logs for seven years in S3 with object lock."},
			{"u", "Thanks, that makes sense. We'll go with that."}},
			[]want{{1, "keeping audit logs for seven years in S3 with object lock", ""}}},
		{"advice in the imperative, accepted", []turn{
			{"a", "Use one FIFO queue per customer and hold the rest while the head is in backoff."},
			{"u", "Sounds good."}},
			[]want{{1, "Use one FIFO queue per customer and hold the rest while the head is in backoff", ""}}},
		{"imperative steps of a walkthrough are no advice", []turn{
			{"a", "Here is how the setup goes. The config lives in the repo root. It has three sections. Then use the CLI to apply it."},
			{"u", "Sounds good."}},
			nil},
		{"go with that resolves to the proposal", []turn{
			{"a", "I recommend keeping audit logs for seven years in S3 with object lock because nobody can delete them early."},
			{"u", "Good, let's go with it."}},
			[]want{{1, "keeping audit logs for seven years in S3 with object lock", "nobody can delete them early"}}},
		{"do it that way resolves to the suggestion", []turn{
			{"a", "I suggest making Close idempotent with a sync.Once."},
			{"u", "We'll do it that way, because the shutdown order isn't ours."}},
			[]want{{1, "making Close idempotent with a sync.Once", ""}}},
		{"option named", []turn{
			{"a", "Two ways.\n\nOption A: keep per-line rounding and add a reconciliation line.\n\nOption B: compute tax on the invoice total and round once."},
			{"u", "Let's go with option B, since the export does the same."}},
			[]want{{1, "compute tax on the invoice total and round once", "the export does the same"}}},
		{"redaction marker in a decision", []turn{
			{"u", "We'll use the token [redacted: github-pat] for the deploy job. We'll use OIDC federation for the staging bucket."}},
			[]want{{0, "OIDC federation", ""}}},
		{"injected context", []turn{
			{"u", "<system-reminder>\nWe'll use Kafka for everything.\n</system-reminder>\nWhich queue should we use?"}},
			nil},

		{"statement next to a decision", []turn{
			{"u", "We'll move application logs to Loki. Audit logs stay in Elasticsearch for now because compliance needs full-text search."}},
			[]want{{0, "move application logs to Loki", ""}, {0, "Audit logs stay in Elasticsearch for now", "compliance needs full-text search"}}},
		{"can be dropped next to a decision", []turn{
			{"u", "Let's go with the partial index. The single-column status index can be dropped afterwards since nothing else uses it."}},
			[]want{{0, "partial index", ""}, {0, "single-column status index can be dropped afterwards", "nothing else uses it"}}},

		// Unresolvable anaphors are dropped.
		{"go with that after a question", []turn{
			{"a", "Do the audit logs contain personal data beyond user ids?"},
			{"u", "Only user ids. We'll go with that."}},
			nil},
		{"keep that after a fragment", []turn{{"u", "Ok. We'll keep that."}}, nil},
		{"let's do that without a proposal", []turn{
			{"a", "The build takes 12 minutes, most of it in the test step."},
			{"u", "Let's do that."}},
			nil},

		// Traps.
		{"statement without a decision", []turn{{"u", "Audit logs stay in Elasticsearch for now."}}, nil},
		{"pronoun statement next to a decision", []turn{{"u", "We'll use Loki. It will be cheaper than Elasticsearch."}},
			[]want{{0, "We'll use Loki", ""}}},
		{"deferral next to a decision", []turn{{"u", "We're going with SQLite in WAL mode. Detecting tethering can wait."}},
			[]want{{0, "SQLite in WAL mode", ""}}},
		{"question", []turn{{"u", "Then do we go with convsearch?"}}, nil},
		{"hypothetical", []turn{{"u", "If we go with Redis, who runs it?"}}, nil},
		{"we could", []turn{{"u", "We could use Redis with BullMQ too."}}, nil},
		{"quoted", []turn{{"u", `A blog post says "we'll use SQS for everything from now on".`}}, nil},
		{"rejected proposal", []turn{
			{"a", "I'd recommend strict mode for every model."},
			{"u", "No, that breaks the partner payloads. Let's go with it only for our own events?"}},
			nil},
		{"assistant plan not accepted", []turn{
			{"a", "Plan: rewrite the ingest in Rust."},
			{"u", "Hmm, what about the Python team?"}},
			nil},
		{"tool output", []turn{{"t", "Decision: merge on (event_id)"}, {"u", "What does that log line mean?"}}, nil},
		// Decisions with no "we'll use"-style trigger (second pass).
		{"x it is", []turn{{"u", "Meilisearch it is."}}, []want{{0, "Meilisearch", ""}}},
		{"that it is: no choice", []turn{{"u", "Whatever it is."}, {"u", "So it is."}}, nil},
		{"change under way", []turn{{"u", "We're dropping the trigram index once search is live, since nothing else reads it."}},
			[]want{{0, "dropping the trigram index", "nothing else reads it"}}},
		{"assistant narrates a change", []turn{{"a", "We're switching to the new client in this step."}}, nil},
		{"decision against", []turn{{"u", "We won't adopt Feast for now."}}, []want{{0, "won't adopt Feast", ""}}},
		{"let's not", []turn{{"u", "Let's not introduce a second queue."}}, []want{{0, "not introduce a second queue", ""}}},
		{"the plan is to", []turn{{"u", "The plan is to run ephemeral runners on the existing cluster."}}, []want{{0, "run ephemeral runners", ""}}},
		{"the plan is: a question", []turn{{"u", "Is the plan to run ephemeral runners?"}}, nil},
		{"going forward", []turn{{"u", "Going forward, release builds stay on hosted runners."}}, []want{{0, "release builds stay on hosted runners", ""}}},
		{"way to go", []turn{{"u", "sqlc is the way to go for us."}}, []want{{0, "sqlc is the way to go", ""}}},
		{"way to go, hypothetical", []turn{{"u", "If sqlc is the way to go, who writes the queries?"}}, nil},
		{"ended up with", []turn{{"a", "We ended up with goose for migrations."}}, []want{{0, "goose for migrations", ""}}},
		{"go to 100 %", []turn{{"u", "We'll go to 100 % on day two."}}, []want{{0, "go to 100 %", ""}}},
		{"go through: not a decision", []turn{{"u", "We'll go through the list tomorrow."}}, nil},
		{"imperative choice in a reply", []turn{
			{"a", "pgx gives you COPY; database/sql keeps you portable."},
			{"u", "Use pgx directly, since we need COPY. Keep in mind the import runs nightly."}},
			[]want{{1, "Use pgx directly", "we need COPY"}}},
		{"imperative opening a conversation", []turn{{"u", "Use the repo layout as reference and compare pgx with database/sql."}}, nil},
		{"imperative from the assistant", []turn{{"u", "Jest or Vitest?"}, {"a", "Switch to a branch first and run both."}}, nil},
		{"imperative question", []turn{{"a", "Vitest is faster."}, {"u", "Stick with Jest?"}}, nil},
		{"outcome label after a heading", []turn{{"u", "Hotfixes — Outcome: hotfixes skip the train.\nOpen question: phased rollout?"}},
			[]want{{0, "hotfixes skip the train", ""}}},
	}
	e := New(nil, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := e.Decisions(convOf(tt.turns...))
			if len(got) != len(tt.want) {
				t.Fatalf("got %d decisions %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.MessageIndex != w.idx || !strings.Contains(g.Decision, w.text) || !strings.Contains(g.Rationale, w.why) {
					t.Errorf("decision %d = [%d] %q (because %q), want [%d] containing %q (because %q)",
						i, g.MessageIndex, g.Decision, g.Rationale, w.idx, w.text, w.why)
				}
				if reAnaphor.MatchString(strings.ToLower(g.Decision)) {
					t.Errorf("decision %q is not self-contained", g.Decision)
				}
			}
		})
	}
}

// TestTopicsNeverNoise: redaction markers, injected context, ids, keys and
// paths never become topics.
func TestTopicsNeverNoise(t *testing.T) {
	tests := []struct {
		name  string
		turns []turn
		bad   []string // no topic may contain one of these words
	}{
		{"redaction markers", []turn{
			{"u", "The CI log printed [redacted: github-pat] and [redacted: aws-access-key]. Rotate [redacted: github-pat] now."},
			{"a", "Revoke [redacted: github-pat] first; then the [redacted: aws-access-key] key. Token rotation for [redacted: github-pat] is done."},
			{"u", "Done: [redacted: github-pat] revoked, [redacted: aws-access-key] rotated."}},
			[]string{"redacted", "github-pat", "aws-access-key"}},
		{"injected context", []turn{
			{"u", "<environment_details>\nWorkspace zanzibar quokka tooling\nzanzibar quokka tooling\n</environment_details>\nWhy is the webhook test flaky?"},
			{"u", "<system-reminder>zanzibar quokka tooling</system-reminder>\nThe webhook test fails once in 50 runs."},
			{"a", "The webhook test reads the clock at init; inject a fake clock into the webhook verifier."}},
			[]string{"zanzibar", "quokka"}},
		{"clauses", []turn{
			{"u", "The finance team argues about reconciliation. Finance team argues every month."},
			{"a", "If the finance team argues, show them the reconciliation report."}},
			[]string{"argue"}},
		{"ids keys and paths", []turn{
			{"u", "Ticket PROJ-48213 and PROJ-48213 again, key AKIAIOSFODNN7EXAMPLE, id 3f9a2c1e-77ab, file ./internal/webhook/verify.go."},
			{"a", "PROJ-48213 is about AKIAIOSFODNN7EXAMPLE in ./internal/webhook/verify.go; id 3f9a2c1e-77ab."},
			{"u", "Yes, PROJ-48213, AKIAIOSFODNN7EXAMPLE, 3f9a2c1e-77ab."}},
			[]string{"proj-48213", "akiaiosfodnn7example", "3f9a2c1e-77ab", "verify", "internal"}},
	}
	e := New(nil, Options{MinTopicScore: 0.001, MaxTopics: 50}) // every acceptable candidate
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, tp := range e.Topics(convOf(tt.turns...)) {
				for _, b := range tt.bad {
					if strings.Contains(strings.ToLower(tp.Name), b) {
						t.Errorf("topic %q contains %q", tp.Name, b)
					}
				}
			}
		})
	}
}

// TestLabelledGolden compares what is extracted from every labelled
// conversation with testdata/labelled.golden, so that a change in the
// output is seen in review. Rewrite it with
//
//	go test ./extract/ -run TestLabelledGolden -update
func TestLabelledGolden(t *testing.T) {
	tune, holdout := loadLabelled(t)
	e := New(nil, Options{})
	var b bytes.Buffer
	for _, l := range append(tune, holdout...) {
		c := l.Conversation
		e.Apply(&c)
		fmt.Fprintf(&b, "== %s\n", l.name)
		for _, tp := range c.Topics {
			fmt.Fprintf(&b, "topic %s\n", tp.Name)
		}
		for _, d := range c.Decisions {
			j, _ := json.Marshal(d.Rationale)
			fmt.Fprintf(&b, "decision [%d] %s\n  because %s\n", d.MessageIndex, d.Decision, j)
		}
	}
	golden.Check(t, filepath.Join("testdata", "labelled.golden"), b.Bytes())
}
