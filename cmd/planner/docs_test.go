package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A docCommand is a planner command shown in a fenced block of README.md
// or docs/*.md: with "$ " before it, the lines after it (to the block's
// end) are its output, a line "..." standing for any lines and a line
// ending "..." for any rest of its line; without, it is a command of a
// block of commands, which must exit 0 (explain: or exitUnsat).
type docCommand struct {
	at     string // file:line
	args   []string
	output []string
	shown  bool // with "$ ": the output is shown
}

var comment = regexp.MustCompile(`\s+#.*$`)

// illustrative are the commands the documents show on files a reader
// has, not the repository.
var illustrative = map[string]bool{
	"solve kernel.mlir --func attention --target gfx942 --subgroups 4 --trips 64": true,
}

// docCommands reads the planner commands of the fenced blocks of text.
func docCommands(file, text string) []docCommand {
	var out []docCommand
	in := false
	var cur *docCommand
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			in, cur = !in, nil
			continue
		}
		if !in {
			continue
		}
		shown := strings.HasPrefix(line, "$ ")
		cmd := strings.TrimPrefix(line, "$ ")
		cmd = strings.TrimSpace(comment.ReplaceAllString(cmd, "")) // a comment after the command
		var args string
		switch {
		case strings.HasPrefix(cmd, "go run ./cmd/planner "):
			args = strings.TrimPrefix(cmd, "go run ./cmd/planner ")
		case strings.HasPrefix(cmd, "planner "):
			args = strings.TrimPrefix(cmd, "planner ")
		default:
			if cur != nil && cur.shown {
				cur.output = append(cur.output, line)
			}
			continue
		}
		out = append(out, docCommand{at: file + ":" + strconv.Itoa(i+1), args: strings.Fields(args), shown: shown})
		cur = &out[len(out)-1]
	}
	return out
}

// matchShown reports whether got (the command's output lines) is the
// shown output: line by line, "..." any lines, a line ending "..." any
// rest of its line.
func matchShown(shown, got []string) bool {
	if len(shown) == 0 {
		return len(got) == 0
	}
	s := shown[0]
	if strings.TrimSpace(s) == "..." {
		for k := 0; k <= len(got); k++ {
			if matchShown(shown[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	if prefix, ok := strings.CutSuffix(s, "..."); ok {
		if !strings.HasPrefix(got[0], prefix) {
			return false
		}
	} else if s != got[0] {
		return false
	}
	return matchShown(shown[1:], got[1:])
}

// Every planner command shown in README.md and docs/ runs: a command of
// a block of commands exits 0, and one shown with "$ " prints what the
// document shows (so that no example goes stale).
func TestDocumentedCommands(t *testing.T) {
	t.Chdir("../..")
	files, _ := filepath.Glob("docs/*.md")
	files = append([]string{"README.md"}, files...)
	ran := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range docCommands(f, string(text)) {
			if illustrative[strings.Join(c.args, " ")] {
				continue
			}
			ran++
			var out, errs bytes.Buffer
			code := run(c.args, strings.NewReader(""), &out, &errs)
			if !c.shown {
				// explain's answer to a graph with no plan is its
				// explanation, with the exit code of no plan.
				if code != 0 && (code != exitUnsat || c.args[0] != "explain") {
					t.Errorf("%s: planner %s: exit %d: %s", c.at, strings.Join(c.args, " "), code, errs.String())
				}
				continue
			}
			got := strings.Split(strings.TrimSuffix(out.String()+errs.String(), "\n"), "\n")
			shown := c.output
			for len(shown) > 0 && shown[len(shown)-1] == "" {
				shown = shown[:len(shown)-1]
			}
			if !matchShown(shown, got) {
				t.Errorf("%s: planner %s (exit %d) prints\n%s\nand the document shows\n%s", c.at, strings.Join(c.args, " "), code, strings.Join(got, "\n"), strings.Join(shown, "\n"))
			}
		}
	}
	if ran < 15 {
		t.Errorf("%d documented commands run: the reader of the documents' blocks finds too few", ran)
	}
}
