package cursor

import (
	"context"
	"database/sql"

	"github.com/convsearch/convsearch/parsers/sqlitedb"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// kv is one key/value row copied out of a table.
type kv struct {
	key   string
	value []byte
}

// queryKV copies the rows of a two-column query. A BLOB value is kept as
// the scan gave it, not copied twice more through a string.
func queryKV(ctx context.Context, tx *sql.Tx, q string, args ...any) ([]kv, error) {
	rs, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []kv
	for rs.Next() {
		var k, v any
		if err := rs.Scan(&k, &v); err != nil {
			return nil, err
		}
		out = append(out, kv{key: sqlitedb.Text(k), value: sqlitedb.Bytes(v)})
	}
	return out, rs.Err()
}
