package extract

import "testing"

func TestZZTry(t *testing.T) {
	e := New(nil, Options{})
	for _, c := range [][]turn{
		{{"u", "Is this outage SEV1 or SEV2?"}, {"a", "By your matrix it is SEV2: checkout was degraded, not unavailable for most users."}, {"u", "our matrix says SEV1 is for most users, so ok SEV2 then. that works, thanks"}},
		{{"u", "How should we keep amount_numeric in sync: a trigger or dual-writing in Django?"}, {"a", "A database trigger catches raw SQL writes; dual-writing in Django is easier to test."}, {"u", "trigger please, there are raw SQL scripts in the billing cron."}},
		{{"u", "What backup setup?"}, {"a", "I'd do 14-day point-in-time recovery plus daily AWS Backup snapshots copied to a separate account."}, {"u", "yep, do that for the backups. Can you give me the Terraform?"}},
	} {
		for _, d := range e.Decisions(convOf(c...)) {
			t.Logf("[%d] %q because %q", d.MessageIndex, d.Decision, d.Rationale)
		}
		t.Log("--")
	}
}
