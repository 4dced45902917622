package sqlitetest

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/convsearch/convsearch/parsers/sqlitedb"
)

// TestWriter: an IMMEDIATE writer's rows are invisible to another reader
// until Commit (a Read neither waits nor changes the file), and the file
// changes only then.
func TestWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE t (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		var n int
		if err := db.QueryRowContext(context.Background(), `SELECT count(*) FROM t`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := Sum(t, path)
	w := Begin(t, path, "IMMEDIATE")
	w.Exec(t, `INSERT INTO t VALUES (?)`, 1)
	w.Read(t, func() {
		if n := count(); n != 0 {
			t.Errorf("%d rows seen before the commit, want 0", n)
		}
	})
	if Sum(t, path) != before {
		t.Error("the file changed before the commit")
	}
	w.Commit(t)
	if n := count(); n != 1 {
		t.Errorf("%d rows after the commit, want 1", n)
	}
	if Sum(t, path) == before {
		t.Error("the file did not change with the commit")
	}
	NoSideFiles(t, path)
}

// TestCreate: a WAL store is left at rest (no side file) with its rows.
func TestCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	Create(t, path, "WAL", []string{`CREATE TABLE t (n INTEGER)`}, func(db *sql.DB) {
		if _, err := db.Exec(`INSERT INTO t VALUES (1), (2)`); err != nil {
			t.Fatal(err)
		}
	})
	NoSideFiles(t, path)
	// sqlitedb's read-only pass leaves a store at rest as it was.
	ReadAtRest(t, path, func() {
		err := sqlitedb.Read(context.Background(), path, func(tx *sql.Tx, tables map[string]bool) error {
			if !tables["t"] {
				t.Errorf("tables %v, want t", tables)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	var mode string
	if err := db.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil || n != 2 {
		t.Errorf("%d rows (%v), want 2", n, err)
	}
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal mode %q (%v), want wal", mode, err)
	}
}
