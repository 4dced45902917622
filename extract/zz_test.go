package extract

import (
	"os"
	"strings"
	"testing"
)

func TestZZ(t *testing.T) {
	e := New(nil, Options{})
	for _, r := range strings.Split(os.Getenv("ZZ_REPLIES"), "|") {
		got := replyDecisions(e, "q?", os.Getenv("ZZ_ANSWER"), r)
		t.Logf("%q -> %q", r, got)
	}
}

func TestZZFile(t *testing.T) {
	tune, _ := loadLabelled(t)
	e := New(nil, Options{})
	for _, x := range tune {
		if strings.HasPrefix(x.name, os.Getenv("ZZ_FILE")+"-") {
			c := x.Conversation
			for _, d := range e.Decisions(&c) {
				t.Logf("[%d] %s  || %s", d.MessageIndex, d.Decision, d.Rationale)
			}
		}
	}
}

func TestZZRuled(t *testing.T) {
	for _, s := range []string{"algolia's out — we got a quote last year.", "okay, salesforce is out — reading your bit", "keycloak is out, nobody"} {
		t.Logf("%q -> %v", s, ruledOut([]byte(s)))
	}
}
