package model

import (
	"strings"
	"testing"
)

// TestOpTableChecks feeds the init check rows that lack what their
// properties call for.
func TestOpTableChecks(t *testing.T) {
	for _, row := range opRows {
		saved := opTable[row.Kind]
		delete(opTable, row.Kind)
		err := checkRow(row)
		opTable[row.Kind] = saved
		if err != nil {
			t.Errorf("the table's own row %s: %v", row.Kind, err)
		}
	}
	tests := []struct {
		row  OpInfo
		want string
	}{
		{OpInfo{}, "no kind"},
		{OpInfo{Kind: OpLoad, Spellings: []string{"load"}}, "two rows"},
		{OpInfo{Kind: "gather", Spellings: []string{}}, "no spelling"},
		{OpInfo{Kind: "gather", Spellings: []string{"gather"}, Result: true}, "no typing rule"},
		{OpInfo{Kind: "gather", Spellings: []string{"gather"}, Flow: FlowRelabel, Forward: sliceAxis, Because: becauseRelabels}, "lacks a transfer"},
		{OpInfo{Kind: "gather", Spellings: []string{"gather"}, Result: true, Type: typeDeclared, Flow: FlowExec, Because: becauseRunsIn}, "cannot give its result's"},
		{OpInfo{Kind: "gather", Spellings: []string{"gather"}, Flow: FlowRecord, Because: becauseRunsIn}, "names no record kind"},
		{OpInfo{Kind: "gather", Spellings: []string{"gather"}, ByRole: true, Arity: 2, Roles: []Role{{Name: "a", Key: true}}}, "1 roles for 2 operands"},
		{OpInfo{Kind: "gather", Spellings: []string{"gather"}, Remat: RematCombine}, "made again"},
		{OpInfo{Kind: "gather", Spellings: []string{"gather"}, Flow: FlowSame}, "nothing of why"},
		{OpInfo{Kind: "gather", Spellings: []string{"gather"}, Keys: []OpKey{{Name: "indices"}}}, `key "indices"`},
		{OpInfo{Kind: "gather", Spellings: []string{"gather"}, Roles: []Role{{Name: "src", Key: true}}}, `operand "src"`},
	}
	for _, tc := range tests {
		err := checkRow(&tc.row)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("row %q: got %v, want an error saying %q", tc.row.Kind, err, tc.want)
		}
	}
}
