package main

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// intrinsics show --format svg without --operand draws every operand with
// a layout, one drawing each, captioned with its name, in one SVG picture;
// with --operand, that one.
func TestIntrinsicsShowSVGDrawsEveryOperand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string // the drawings' captions
	}{
		{[]string{"mma_m16n8k16_f32_f16"}, []string{"operand a", "operand b", "operand c", "operand d"}},
		{[]string{"--operand", "b", "mma_m16n8k16_f32_f16"}, []string{"operand b"}},
		{[]string{"ldmatrix_x4"}, []string{"operand fragment"}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out, errs bytes.Buffer
			args := append([]string{"intrinsics", "show", "--format", "svg"}, c.args...)
			if code := Main(args, &out, &errs); code != 0 {
				t.Fatalf("exit %d: %s", code, errs.String())
			}
			var root struct {
				XMLName  xml.Name
				Drawings []struct {
					Class string `xml:"class,attr"`
					Texts []struct {
						Text string `xml:",chardata"`
					} `xml:"text"`
				} `xml:"g"`
			}
			if err := xml.Unmarshal(out.Bytes(), &root); err != nil || root.XMLName.Local != "svg" {
				t.Fatalf("not one SVG picture: %v", err)
			}
			var got []string
			for _, d := range root.Drawings {
				if d.Class != "drawing" || len(d.Texts) == 0 {
					t.Fatalf("a top-level group that is no drawing: %q", d.Class)
				}
				_, caption, _ := strings.Cut(d.Texts[0].Text, ": ")
				got = append(got, caption)
			}
			if strings.Join(got, "; ") != strings.Join(c.want, "; ") {
				t.Errorf("drawings %q, want %q", got, c.want)
			}
		})
	}
}
