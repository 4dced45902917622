package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/parsers"
)

// create makes a database at path in the given journal mode with a table
// of two rows, and closes it.
func create(t *testing.T, path, journal string) {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode("+journal+")")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE notes (id INTEGER, body TEXT, raw BLOB, at INTEGER, stamp TEXT)`,
		`INSERT INTO notes VALUES (1, 'one', x'6869', 1700000000, '2025-06-01 10:00:00')`,
		`INSERT INTO notes VALUES (2, 'two', NULL, 1700000000000, '2025-06-01T10:00:00Z')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDSN(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/Users/u/Library/Application Support/amazon-q/data.sqlite3", "file:///Users/u/Library/Application Support/amazon-q/data.sqlite3?"},
		{"/odd/100%?#/data.sqlite3", "file:///odd/100%25%3F%23/data.sqlite3?"},
		{"rel/data.sqlite3", "file:rel/data.sqlite3?"},
	}
	for _, tt := range tests {
		got := dsn(tt.path, false)
		if !strings.HasPrefix(got, tt.want) || !strings.Contains(got, "mode=ro") || !strings.Contains(got, "query_only(1)") {
			t.Errorf("dsn(%q) = %q, want prefix %q with mode=ro and query_only", tt.path, got, tt.want)
		}
		if strings.Contains(got, "immutable") {
			t.Errorf("dsn(%q, false) = %q: immutable only for a WAL store at rest", tt.path, got)
		}
	}
	if got := dsn("/x.db", true); !strings.HasSuffix(got, "&immutable=1") {
		t.Errorf("dsn(quiet) = %q, want immutable=1", got)
	}
}

// TestRead reads a WAL store at rest and a rollback-journal one: every row
// and table comes back, typed columns read as text and times, the file is
// unchanged and nothing is left beside it.
func TestRead(t *testing.T) {
	for _, journal := range []string{"WAL", "DELETE"} {
		t.Run(journal, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "store.db")
			create(t, path, journal)
			if _, err := os.Stat(path + "-wal"); err == nil {
				t.Fatal("test setup: the -wal is still there")
			}
			if got := quietWAL(path); got != (journal == "WAL") {
				t.Errorf("quietWAL = %v for a %s store at rest", got, journal)
			}
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var bodies, raws []string
			var times []time.Time
			err = Read(context.Background(), path, func(tx *sql.Tx, tables map[string]bool) error {
				if !tables["notes"] || len(tables) != 1 {
					t.Errorf("tables %v, want notes alone", tables)
				}
				return EachRow(context.Background(), tx, `SELECT * FROM notes WHERE id > ? ORDER BY id`, func(r Row) {
					bodies = append(bodies, r.Text("body"))
					raws = append(raws, r.Text("raw"))
					times = append(times, r.Time("at"), r.Time("stamp"))
					if r.Text("missing") != "" || !r.Time("missing").IsZero() || len(r.Bytes("missing")) != 0 {
						t.Errorf("a missing column reads %q %v %q", r.Text("missing"), r.Time("missing"), r.Bytes("missing"))
					}
					if string(r.Bytes("raw")) != r.Text("raw") || string(r.Bytes("body")) != r.Text("body") {
						t.Errorf("Bytes reads raw %q body %q, unlike Text", r.Bytes("raw"), r.Bytes("body"))
					}
				}, 0)
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(bodies, ",") != "one,two" || strings.Join(raws, ",") != "hi," {
				t.Errorf("bodies %q, raws %q", bodies, raws)
			}
			want := []time.Time{
				time.Unix(1700000000, 0).UTC(), time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC),
				time.Unix(1700000000, 0).UTC(), time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC),
			}
			for i := range want {
				if i >= len(times) || !times[i].Equal(want[i]) {
					t.Errorf("times %v, want %v", times, want)
					break
				}
			}
			after, _ := os.ReadFile(path)
			if string(after) != string(before) {
				t.Error("the store changed")
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			if len(entries) != 1 {
				t.Errorf("%d files in the folder after the read, want the store alone", len(entries))
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(Magic+strings.Repeat("x", 300)), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.db")
	noop := func(*sql.Tx, map[string]bool) error { return nil }
	if err := Read(context.Background(), garbage, noop); !errors.Is(err, parsers.ErrSyntax) || !strings.Contains(err.Error(), garbage) {
		t.Errorf("garbage: %v, want a syntax error naming the file", err)
	}
	if err := Read(context.Background(), missing, noop); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing: %v, want an error naming the file", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("reading a missing store created it")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ok := filepath.Join(dir, "ok.db")
	create(t, ok, "DELETE")
	if err := Read(ctx, ok, noop); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), ok) {
		t.Errorf("cancelled: %v, want context.Canceled naming the file", err)
	}
}

func TestError(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want error
	}{
		{errors.New("file is not a database (26)"), parsers.ErrSyntax},
		{errors.New("database disk image is malformed"), parsers.ErrSyntax},
		{errors.New("SQL logic error: no such table: threads (1)"), parsers.ErrShape},
		{context.Canceled, context.Canceled},
	} {
		got := Error("/s/x.db", "read", tc.err)
		if !errors.Is(got, tc.want) {
			t.Errorf("Error(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
	busy := errors.New("database is locked (5)")
	if got := Error("/s/x.db", "read", busy); !errors.Is(got, busy) || !strings.Contains(got.Error(), "/s/x.db") {
		t.Errorf("busy: %v, want SQLite's words and the file", got)
	}
	if !IsSQLite([]byte(Magic+"rest")) || IsSQLite([]byte("SQLite format")) || IsSQLite(nil) {
		t.Error("IsSQLite")
	}
}

func TestBytes(t *testing.T) {
	blob := []byte("blob")
	if got := Bytes(blob); &got[0] != &blob[0] {
		t.Errorf("Bytes copied a BLOB; want it as scanned")
	}
	for _, c := range []struct {
		v    any
		want string
	}{{"text", "text"}, {int64(42), "42"}, {1.5, "1.5"}, {nil, ""}} {
		if got := Bytes(c.v); string(got) != c.want {
			t.Errorf("Bytes(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}
