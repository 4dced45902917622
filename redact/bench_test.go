package redact

import (
	"strings"
	"testing"
)

// Typical messages of about 500 bytes: an assistant's prose, and code with
// the words a secret scanner keys on (token, key, password) but no secret.
const (
	benchProse = `I looked at the failing test again. The problem is that the watcher emits the same path twice when a
file is renamed and then written: the debounce window only merges events for one name, so the second
event arrives after the index was updated and the fingerprint no longer matches. The fix is to key the
pending map on the file's inode where the platform has one, and to fall back to the path otherwise. I
also added a test for the rename-then-write sequence, and it passes on Linux and macOS.`

	benchCode = `func (c *Client) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	token, err := c.tokens.Get(ctx)
	if err != nil {
		return nil, fmt.Errorf("get token for %s: %w", req.URL.Host, err)
	}
	req.Header.Set("Authorization", "Bearer "+token.Value)
	key := cacheKey(req.Method, req.URL.String())
	if resp, ok := c.cache.Load(key); ok && !c.opts.NoCache {
		return resp.(*http.Response), nil
	}
	return c.http.Do(req.WithContext(ctx))
}`
)

func benchSecrets() string {
	return benchProse[:200] + "\nexport GITHUB_TOKEN=ghp_" + fake(300, alnum, 36) +
		"\nDATABASE_URL=postgres://app:" + fake(301, alnum, 16) + "@db:5432/app\n" + benchCode[:150]
}

func BenchmarkString(b *testing.B) {
	r := New()
	for _, bc := range []struct{ name, text string }{
		{"text=prose", benchProse},
		{"text=code", benchCode},
		{"text=secrets", benchSecrets()},
		{"text=prose50k", strings.Repeat(benchProse+"\n", 100)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				r.String(bc.text)
			}
		})
	}
}
