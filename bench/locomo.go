package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/convsearch/convsearch/parsers/loose"
)

// LoCoMo's data file (locomo10.json of github.com/snap-research/LoCoMo): a
// list of long two-person dialogs, each with its questions. Its licence
// keeps it out of the project; ConvertLoCoMo turns a copy the user has into
// files and questions RunRecall reads, so that the public benchmark runs
// from one command (docs/RECALL.md).
type locomoSample struct {
	SampleID     string                     `json:"sample_id"`
	QA           []locomoQA                 `json:"qa"`
	Conversation map[string]json.RawMessage `json:"conversation"`
}

type locomoQA struct {
	Question string   `json:"question"`
	Evidence []string `json:"evidence"`
	Category int      `json:"category"`
}

type locomoTurn struct {
	Speaker string `json:"speaker"`
	DiaID   string `json:"dia_id"`
	Text    string `json:"text"`
	Caption string `json:"blip_caption"`
}

// reEvidence is a turn id, "D3:12": its session is the number after D. A
// few evidence entries hold several ids ("D9:1 D4:4 D4:6"), each read.
var reEvidence = regexp.MustCompile(`\bD:?(\d+)`)

// ConvertLoCoMo reads LoCoMo's data file src and writes each session of each
// dialog as a portable-format file under dir/conversations (the dialog's
// sample id as project, each turn's speaker as author, a shared photo's
// caption after the turn's text), and returns one held question per QA
// item with evidence, the sessions of its evidence as the answer, asked
// within its dialog (session-level retrieval, as the benchmark is scored).
func ConvertLoCoMo(src, dir string) ([]Question, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("locomo: %w", err)
	}
	var samples []locomoSample
	if err := json.Unmarshal(b, &samples); err != nil {
		return nil, fmt.Errorf("locomo: %s: %w", src, err)
	}
	sub := filepath.Join(dir, "conversations")
	var qs []Question
	for i, s := range samples {
		if s.SampleID == "" {
			s.SampleID = fmt.Sprintf("locomo-%d", i)
		}
		sessions, err := writeLoCoMoSessions(s, sub)
		if err != nil {
			return nil, fmt.Errorf("locomo: %s: %s: %w", src, s.SampleID, err)
		}
		for _, qa := range s.QA {
			var ids []string
			for _, ev := range qa.Evidence {
				for _, m := range reEvidence.FindAllStringSubmatch(ev, -1) {
					n, _ := strconv.Atoi(m[1])
					id := locomoSessionID(s.SampleID, n)
					if sessions[n] && !slices.Contains(ids, id) {
						ids = append(ids, id)
					}
				}
			}
			if qa.Question == "" || len(ids) == 0 {
				continue // nothing to find: no evidence in the dialog
			}
			qs = append(qs, Question{Q: qa.Question, IDs: ids, Half: HalfHeld, Project: s.SampleID})
		}
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("locomo: %s: no question with evidence: is it LoCoMo's data file?", src)
	}
	return qs, nil
}

func locomoSessionID(sample string, n int) string { return fmt.Sprintf("%s-s%02d", sample, n) }

// writeLoCoMoSessions writes s's sessions and returns their numbers.
func writeLoCoMoSessions(s locomoSample, dir string) (map[int]bool, error) {
	var a, bName string
	json.Unmarshal(s.Conversation["speaker_a"], &a)
	json.Unmarshal(s.Conversation["speaker_b"], &bName)
	written := map[int]bool{}
	for key, raw := range s.Conversation {
		n, err := strconv.Atoi(strings.TrimPrefix(key, "session_"))
		if err != nil || !strings.HasPrefix(key, "session_") {
			continue // speakers, date_times
		}
		var turns []locomoTurn
		if err := json.Unmarshal(raw, &turns); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		if len(turns) == 0 {
			continue
		}
		var when string
		json.Unmarshal(s.Conversation[key+"_date_time"], &when)
		date := parseLoCoMoDate(when)
		var msgs []map[string]string
		for j, t := range turns {
			// The first speaker is the user, the second the assistant; a
			// turn naming neither takes its place in the alternation.
			role := "user"
			switch {
			case a != "" && t.Speaker == a:
			case bName != "" && t.Speaker == bName, j%2 == 1:
				role = "assistant"
			}
			text := t.Text
			if t.Caption != "" {
				text += " [shares a photo: " + t.Caption + "]"
			}
			msgs = append(msgs, map[string]string{
				"role": role, "author": t.Speaker, "content": text,
				"timestamp": date.Add(time.Duration(j) * time.Minute).Format("2006-01-02T15:04:05"),
			})
		}
		id := locomoSessionID(s.SampleID, n)
		title := fmt.Sprintf("%s and %s, session %d", a, bName, n)
		if err := writeChatSession(dir, id, title, s.SampleID, "locomo", date, msgs); err != nil {
			return nil, fmt.Errorf("%s: %w", id, err)
		}
		written[n] = true
	}
	return written, nil
}

// parseLoCoMoDate reads a session's date_time ("1:56 pm on 8 May, 2023",
// one of loose.ParseTime's layouts); an unreadable one is 1 January 2000,
// so that the session is still indexed (its date is not asked about).
func parseLoCoMoDate(s string) time.Time {
	if t, ok := loose.ParseTime(s); ok {
		return t
	}
	return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
}
