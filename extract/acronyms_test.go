package extract

import (
	"slices"
	"testing"

	"github.com/convsearch/convsearch/conversation"
)

func TestAcronymLongForm(t *testing.T) {
	tests := []struct {
		text, word, want string
	}{
		{"The usual fix is an **Employer of Record (EOR)** that employs him.", "eor", "employer of record"},
		{"Options: Little Green Light (LGL), Bloomerang.", "lgl", "little green light"},
		{"Use LGL (Little Green Light) for donors.", "lgl", "little green light"},
		{"tenant_id on every table + row-level security (RLS) on top", "rls", "row-level security"},
		{"2. **Change data capture (CDC).** Take a snapshot.", "cdc", "change data capture"},
		{"an object-relational mapper (ORM) hides the SQL", "orm", "object-relational mapper"},
		{"a Backend-for-Frontend (BFF) per client", "bff", "backend-for-frontend"},
		// Not spelled out: the words before do not give the letters, the
		// brackets say something else, or the letters are inside a word.
		{"We send them to SQS (it's cheap) for now.", "sqs", ""},
		{"move the Canadian contractor to an agency (EOR)", "eor", ""},
		{"THEORY (EOR) is no acronym here", "eor", ""},
		{"the records of employees (EOR)", "eor", ""},
		{"Employer of Record (EOR2)", "eor", ""},
		{"a dead-letter queue for poison messages, DLQ for short", "dlq", ""},
		{"Kafka (Apache Kafka)", "kafka", ""},
		{"Some Text (ST)", "st", "some text"},
		{"text (T)", "t", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			c := &conversation.Conversation{Messages: []conversation.Message{{Role: conversation.RoleUser, Content: tt.text}}}
			if got := acronymLongForm(c, tt.word); got != tt.want {
				t.Errorf("acronymLongForm(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

// TestTopicAcronym checks that a spelled-out acronym names its topic with
// both forms, and that the long form's words are not chosen again.
func TestTopicAcronym(t *testing.T) {
	c := &conversation.Conversation{Messages: []conversation.Message{
		{Role: conversation.RoleUser, Content: "Our Canadian contractor may be misclassified. Should we use an EOR?"},
		{Role: conversation.RoleAssistant, Content: "Yes: an Employer of Record (EOR) employs him locally. An EOR costs more than paying contractors directly, but the EOR carries the employment risk. Pick an EOR with Canadian payroll."},
		{Role: conversation.RoleUser, Content: "Which EOR is cheapest for one contractor in Canada? The employer has to handle payroll records."},
		{Role: conversation.RoleAssistant, Content: "For one contractor in Canada, most EOR providers charge a monthly fee; compare what the EOR includes for payroll."},
	}}
	topics := New(nil, Options{}).Topics(c)
	var names []string
	found := false
	for _, tp := range topics {
		names = append(names, tp.Name)
		if tp.Name == "employer of record (eor)" {
			found = true
		}
		if tp.Name == "employer" || tp.Name == "record" || tp.Name == "eor" {
			t.Errorf("topic %q repeats the spelled-out acronym", tp.Name)
		}
	}
	if !found {
		t.Errorf("topics %q, want \"employer of record (eor)\" among them", names)
	}
}

// TestTopicUnits checks that a unit of measure is no topic alone.
func TestTopicUnits(t *testing.T) {
	c := &conversation.Conversation{Messages: []conversation.Message{
		{Role: conversation.RoleUser, Content: "The 5.2 kWh battery or the 10.4 kWh one? We use 10 kWh a day, 3,600 kWh a year."},
		{Role: conversation.RoleAssistant, Content: "The 5.2 kWh battery stores most surplus: 4.8 kWh usable, so 2 kWh a day is left for the evening. The 10.4 kWh battery only pays off with a cheap overnight tariff, at 9.6 kWh usable."},
		{Role: conversation.RoleUser, Content: "So with the overnight tariff the 10.4 kWh battery covers the whole day?"},
	}}
	var names []string
	for _, tp := range New(nil, Options{}).Topics(c) {
		names = append(names, tp.Name)
	}
	if slices.Contains(names, "kwh") || len(names) == 0 {
		t.Errorf("topics %q: want some, and not the unit kwh alone", names)
	}
	for _, w := range []string{"ml", "kb", "lb", "rpm", "hr"} {
		if units.HasString(w) {
			t.Errorf("%q is taken for a unit; it also names a thing (machine learning, knowledge base, …)", w)
		}
	}
}

// TestTopicsOfAChat checks that in a chat between people, the people writing
// and the days they name are not topics: who talks and when, not what about.
func TestTopicsOfAChat(t *testing.T) {
	msgs := []conversation.Message{
		{Role: conversation.RoleUser, Author: "Fraser", Content: "Marta! We adopted a greyhound on Saturday. Rachel wanted a greyhound for years."},
		{Role: conversation.RoleAssistant, Author: "Marta", Content: "Fraser, a greyhound! What's her name? Send me greyhound pictures on Saturday, I'm free all weekend."},
		{Role: conversation.RoleUser, Author: "Fraser", Content: "Pudding. The greyhound rescue near Lanark said she's 4. Marta you would love her, ugh the stairs scare her though."},
		{Role: conversation.RoleAssistant, Author: "Marta", Content: "Pudding the greyhound, perfect. Ugh, Fraser, I'm jealous. Saturday I'm surfing again."},
	}
	var names []string
	for _, tp := range New(nil, Options{}).Topics(&conversation.Conversation{Messages: msgs}) {
		names = append(names, tp.Name)
	}
	for _, no := range []string{"fraser", "marta", "saturday", "ugh"} {
		if slices.Contains(names, no) {
			t.Errorf("topics %q: %q is no topic of this chat", names, no)
		}
	}
	if !slices.Contains(names, "greyhound") {
		t.Errorf("topics %q: want greyhound", names)
	}
}
