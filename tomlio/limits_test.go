package tomlio

import (
	"fmt"
	"strings"
	"testing"

	"planner/model"
)

// A layout table of more rows than one array may hold (a million-row
// table took 17 s and 1.3 GB to decode) is refused by the scan, before it
// is decoded, at the array.
func TestLongArrayRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString("shape = [512, 256]\nsubgroup_size = 32\nsubgroups = 1\n\n[layout]\nnotation = \"table\"\nrows = [\n")
	for e := range MaxArrayLen * 2 {
		lane, v := e%32, e/32
		fmt.Fprintf(&b, "  [0, %d, %d, %d, %d],\n", lane, v, e/256, e%256)
	}
	b.WriteString("]\n")
	_, err := ParseLayoutFile("big.toml", []byte(b.String()))
	list, ok := model.Errors(err)
	if !ok || len(list) != 1 {
		t.Fatalf("want one error, got %v", err)
	}
	e := list[0]
	if e.Code != model.CodeTooLarge || e.Pos.Line != 7 || !strings.Contains(e.Msg, "layout.rows has more than 65536 entries") {
		t.Errorf("got %s (code %s)", e, e.Code)
	}
}
