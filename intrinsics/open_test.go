package intrinsics

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"planner/model"
)

// The index Open reads of every built-in record file (its name, kind and
// the name's position) is what parsing the file gives, and it reads every
// record file: none is parsed whole at start-up.
func TestIndexReadsWhatLoadReads(t *testing.T) {
	lib, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	indexed := 0
	_ = fs.WalkDir(builtinFS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".toml") {
			return err
		}
		data, _ := builtinFS.ReadFile(path)
		file := "intrinsics/" + path
		h, ok := readHeader(file, data)
		if strings.HasPrefix(path, "targets/") {
			if ok && h.kind != "" {
				t.Errorf("%s: a target indexed as a record of kind %q", file, h.kind)
			}
			return nil
		}
		if !ok {
			t.Errorf("%s: not indexed: it would be parsed whole at start-up", file)
			return nil
		}
		indexed++
		r := lib.Records[h.name]
		switch {
		case r == nil:
			t.Errorf("%s: indexed as %q, which Load does not know", file, h.name)
		case r.File != file || string(r.Kind) != h.kind || r.Pos != h.pos:
			t.Errorf("%s: indexed as %s %q at %s, parsed as %s %q at %s in %s", file, h.kind, h.name, h.pos, r.Kind, r.Name, r.Pos, r.File)
		}
		return nil
	})
	if indexed != len(lib.Records) {
		t.Errorf("indexed %d record files, Load reads %d records", indexed, len(lib.Records))
	}
}

// A library made by Open offers each target the records Load gives it,
// equal field by field, and knows each target's record kinds alike.
func TestOpenOffersWhatLoadOffers(t *testing.T) {
	full, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	lib, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	if lib.lazy == nil {
		t.Fatal("Open read every record: the index could not be used")
	}
	if len(lib.Records) != 0 {
		t.Errorf("Open parsed %d records before any target asked for them", len(lib.Records))
	}
	for _, name := range full.TargetNames() {
		want, got := full.Targets[name], lib.Targets[name]
		// Offered parses the target's records, and with them fills in
		// the target's ScratchRows, which Load fills in at once.
		g, err := lib.Offered(got)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("target %s differs from Load's: %s", name, targetDiff(got, want))
			continue
		}
		w, err := full.Offered(want)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) || len(g) != len(want.Records) {
			t.Errorf("target %s: Open offers %d records, Load %d of its %d", name, len(g), len(w), len(want.Records))
		}
	}
}

// The index reads plain top-level lines and gives up on anything else.
func TestReadHeader(t *testing.T) {
	tests := []struct {
		name, text string
		want       header // name "": not indexed
	}{
		{"plain", "# c\nname = \"r\"\nkind = \"mma\"\n[a]\nname = \"x\"\n", header{"r", "mma", posAt(2, 1)}},
		{"comment after", "name = \"r\"  # the name\nkind=\"mma\"\n", header{"r", "mma", posAt(1, 1)}},
		{"indented", "  name = \"r\"\n", header{"r", "", posAt(1, 3)}},
		{"array lines skipped", "records = [\n  \"a\",\n]\nname = \"t\"\n", header{"t", "", posAt(4, 1)}},
		{"after a table", "[a]\nname = \"r\"\n", header{}},
		{"twice", "name = \"r\"\nname = \"s\"\n", header{}},
		{"escape", "name = \"r\\u0041\"\n", header{}},
		{"literal string", "name = 'r'\n", header{}},
		{"multi-line string", "notes = \"\"\"\nname = \"x\"\n\"\"\"\nname = \"r\"\n", header{}},
		{"trailing text", "name = \"r\" x\n", header{}},
		{"quoted key", "\"name\" = \"r\"\n", header{}},
		{"no name", "kind = \"mma\"\n", header{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := readHeader("f.toml", []byte(tt.text))
			if ok != (tt.want.name != "") || ok && h != tt.want {
				t.Errorf("got %+v, %v; want %+v", h, ok, tt.want)
			}
		})
	}
}

func posAt(line, col int) model.Pos { return model.Pos{File: "f.toml", Line: line, Col: col} }

// A built-in record that does not parse when a target first asks for it
// is an error naming the record, never a panic.
func TestOfferedReportsARecordThatDoesNotParse(t *testing.T) {
	lib, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	if lib.lazy == nil {
		t.Fatal("Open parsed every record: nothing is left to parse lazily")
	}
	tg := lib.Targets["sm_80"]
	name := tg.Records[0]
	f := lib.lazy.unread[name]
	f.data = append(append([]byte{}, f.data...), "\n[a\n"...)
	lib.lazy.unread[name] = f
	recs, err := lib.Offered(tg)
	if err == nil || !strings.Contains(err.Error(), name) || recs != nil {
		t.Fatalf("got %d records and error %v, want an error naming %s", len(recs), err, name)
	}
}

// targetDiff names the fields in which two targets differ.
func targetDiff(got, want *model.Target) string {
	var out []string
	gv, wv := reflect.ValueOf(*got), reflect.ValueOf(*want)
	for i := range gv.NumField() {
		if !reflect.DeepEqual(gv.Field(i).Interface(), wv.Field(i).Interface()) {
			out = append(out, gv.Type().Field(i).Name)
		}
	}
	return strings.Join(out, ", ")
}
