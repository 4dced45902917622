package setup

import (
	"fmt"
	"strings"
)

// unifiedDiff is a unified diff of a and b with three lines of context, as
// `diff -u` prints it; empty when they are equal. Edits by setup are small
// and in one place, so the common start and end are cut off before the
// quadratic part runs on what is left.
func unifiedDiff(path string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	al, bl := diffLines(string(a)), diffLines(string(b))
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	ops := lcsOps(al[pre:len(al)-suf], bl[pre:len(bl)-suf])
	// The whole edit script, common lines included, with line numbers.
	type line struct {
		op   byte // ' ', '-', '+'
		text string
		ai   int // index in a of ' ' and '-' lines; in b of '+' lines
		bi   int
	}
	var all []line
	for i := 0; i < pre; i++ {
		all = append(all, line{' ', al[i], i, i})
	}
	ai, bi := pre, pre
	for _, op := range ops {
		switch op {
		case ' ':
			all = append(all, line{' ', al[ai], ai, bi})
			ai++
			bi++
		case '-':
			all = append(all, line{'-', al[ai], ai, bi})
			ai++
		case '+':
			all = append(all, line{'+', bl[bi], ai, bi})
			bi++
		}
	}
	for ; ai < len(al); ai, bi = ai+1, bi+1 {
		all = append(all, line{' ', al[ai], ai, bi})
	}
	const ctx = 3
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s (convsearch setup)\n", path, path)
	for i := 0; i < len(all); {
		if all[i].op == ' ' {
			i++
			continue
		}
		// A hunk: changes whose gaps are at most 2*ctx common lines.
		start := max(i-ctx, 0)
		end := i
		for j := i; j < len(all); j++ {
			if all[j].op != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*ctx {
				break
			}
		}
		stop := min(end+ctx, len(all))
		var na, nb int
		for _, l := range all[start:stop] {
			if l.op != '+' {
				na++
			}
			if l.op != '-' {
				nb++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(all[start].ai, na), hunkRange(all[start].bi, nb))
		for _, l := range all[start:stop] {
			sb.WriteByte(l.op)
			sb.WriteString(l.text)
			if !strings.HasSuffix(l.text, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return sb.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func diffLines(s string) []string {
	if s == "" {
		return nil
	}
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// lcsOps is an edit script turning a into b through their longest common
// subsequence: ' ' keep, '-' delete, '+' insert.
func lcsOps(a, b []string) []byte {
	n, m := len(a), len(b)
	dp := make([][]int32, n+1)
	for i := range dp {
		dp[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	var ops []byte
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, ' ')
			i++
			j++
		case dp[i+1][j] >= dp[i][j+1]:
			ops = append(ops, '-')
			i++
		default:
			ops = append(ops, '+')
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, '-')
	}
	for ; j < m; j++ {
		ops = append(ops, '+')
	}
	return ops
}
