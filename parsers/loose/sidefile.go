package loose

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/convsearch/convsearch/parsers"
)

// ReadSideFile decodes the JSON file path into v: a companion or side file
// a parser reads beside the file it was handed (a session's metadata, a
// message file, a workspace.json). It reads at most max bytes (MaxFileSize
// when max < 1). found is false, with a nil error, when the file does not
// exist: a missing side file is no problem. Any other failure (unreadable,
// over max, empty, not JSON of v's shape) is an error naming path, and a
// line when the JSON is at fault, for the caller to warn about on its own
// file or to ignore.
func ReadSideFile(path string, max int64, v any) (found bool, err error) {
	if max < 1 {
		max = MaxFileSize
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return true, err // an *fs.PathError: it names path
	}
	if int64(len(data)) > max {
		return true, parsers.Errorf(path, 0, parsers.ErrTooLarge, "over %d bytes", max)
	}
	return true, Unmarshal(path, data, v)
}
