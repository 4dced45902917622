package words

import (
	"strings"
	"testing"
)

func TestSingular(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"locks", "lock"}, {"queries", "query"}, {"indexes", "index"}, {"batches", "batch"},
		{"classes", "class"}, {"class", "class"}, {"status", "status"}, {"analysis", "analysis"},
		{"aliases", "alias"}, {"caches", "cache"}, {"cookies", "cookie"}, {"apis", "api"},
		{"cpus", "cpu"}, {"ids", "ids"}, {"bus", "bus"}, {"intervals", "interval"},
	} {
		if got := string(Singular([]byte(tt.in))); got != tt.want {
			t.Errorf("Singular(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

type rec struct{ out []string }

func (r *rec) Word(norm, surface []byte) { r.out = append(r.out, string(norm)+"/"+string(surface)) }
func (r *rec) Break()                    { r.out = append(r.out, "|") }

func TestScan(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Advisory Locks and PgBouncer", "advisory/advisory lock/locks | pgbouncer/pgbouncer |"},
		{"see https://x.org/a and /etc/passwd, `code here` v2 3f9a2c1d 10ms 2024", "| | | | | | | | | |"},
		{"```\nwe use locks\n```\nwrite-ahead logs", "write-ahead/write-ahead log/logs |"},
		{"read/write paths; the user's choice", "read/read | write/write path/paths | | user/user choice/choice |"},
		{"    x := foo(bar)\n$ go test ./...\nC++ and C# apps", "| | c++/c++ | c#/c# app/apps |"},
	} {
		var r rec
		var s Scanner
		s.Scan(tt.in, &r)
		// Collapse runs of breaks for readability.
		got := strings.Join(r.out, " ")
		for strings.Contains(got, "| |") {
			got = strings.ReplaceAll(got, "| |", "|")
		}
		want := tt.want
		for strings.Contains(want, "| |") {
			want = strings.ReplaceAll(want, "| |", "|")
		}
		if got != want {
			t.Errorf("Scan(%q)\n got %s\nwant %s", tt.in, got, want)
		}
	}
}
