package plans

import (
	"fmt"
	"io"
	"math"
	"strings"

	"planner/model"
)

// SVGDrawing is one layout of an SVG picture, under its caption
// ("operand a"; "" for none).
type SVGDrawing struct {
	Caption  string
	Layout   *model.Layout
	Notation model.Notation
}

// WriteLayoutSVG draws one layout as an SVG picture, as WriteLayoutsSVG
// does.
func WriteLayoutSVG(w io.Writer, l *model.Layout, n model.Notation) error {
	return WriteLayoutsSVG(w, SVGDrawing{Layout: l, Notation: n})
}

// WriteLayoutsSVG draws layouts one below the other in one SVG picture,
// each a group of class "drawing": one cell per element, filled with the
// colour of the lane holding it (every lane of a subgroup a colour of its
// own) and labelled with that lane (and, where cells are large enough,
// the value); the elements each subgroup holds are outlined by one path
// of class "subgroup", labelled sN at its first element where there are
// several; a cell's tooltip
// names every holder. Cells shrink as the tensor grows, so that a 64x128
// tensor fits in 2000 pixels a side with its lane numbers still legible.
func WriteLayoutsSVG(w io.Writer, ds ...SVGDrawing) error {
	var body strings.Builder
	width, height := 0, 0
	for _, d := range ds {
		dw, dh := drawLayoutSVG(&body, d, height)
		width, height = max(width, dw), height+dh
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="monospace">`+"\n", width, height, width, height)
	b.WriteString("<style>.c{stroke:#999;stroke-width:0.5} .subgroup{fill:none;stroke:#000;stroke-width:2.5} .sglabel{font-weight:bold;stroke:#fff;stroke-width:3;paint-order:stroke} .axis{fill:#555}</style>\n")
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	b.WriteString(body.String())
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// svgGrid is the geometry of one drawing's cells: their size, the font
// of their labels, whether a cell has room for the value under the lane,
// and every how many columns and rows the axes are numbered.
type svgGrid struct {
	cw, ch, font       int
	twoLines           bool
	colEvery, rowEvery int
}

func gridFor(rows, cols int) svgGrid {
	cw := min(48, max(14, 1536/cols))
	ch := 30
	if cw < 36 {
		ch = min(cw, 20)
	}
	ch = min(ch, max(14, 1280/rows))
	g := svgGrid{cw: cw, ch: ch, twoLines: cw >= 36 && ch >= 28, font: min(10, ch*2/3, cw*2/3)}
	every := func(size int) int {
		k := 1
		for k*size < 24 {
			k *= 2
		}
		return k
	}
	g.colEvery, g.rowEvery = every(cw), every(ch)
	return g
}

// drawLayoutSVG writes one drawing as a group placed y0 pixels down and
// returns its width and height.
func drawLayoutSVG(b *strings.Builder, d SVGDrawing, y0 int) (width, height int) {
	const margin, line = 44, 16
	l := d.Layout
	hs := holdersByElement(l)
	captions, rows, cols, base := panels(l.Shape())
	g := gridFor(rows, cols)
	width = max(margin+cols*g.cw+16, 560)
	chars := (width - 20) * 10 / 72 // 12-pixel monospace: about 7.2 pixels a character

	fmt.Fprintf(b, `<g class="drawing" transform="translate(0,%d)">`+"\n", y0)
	y := 18
	if d.Caption != "" {
		fmt.Fprintf(b, `<text x="10" y="%d" font-size="13" font-weight="bold">%s</text>`+"\n", y, xmlEscape(d.Caption))
		y += line + 2
	}
	var text []string
	for _, h := range strings.Split(strings.TrimSpace(Header(l, d.Notation)), "\n") {
		text = append(text, wrapLine(h, chars)...)
	}
	for _, h := range text {
		fmt.Fprintf(b, `<text x="10" y="%d" font-size="12">%s</text>`+"\n", y, xmlEscape(h))
		y += line
	}
	legend := "each cell: the lane holding the element"
	if g.twoLines {
		legend += ", below it the value (+n: n more holders)"
	}
	legend += "; colour: the lane, each lane of a subgroup its own; thick lines: the elements of each subgroup"
	if l.Size(model.Subgroup) > 1 {
		legend += ", sN at its first"
	}
	legend += "; a cell's tooltip names every holder"
	for _, h := range wrapLine(legend, chars*12/11) {
		fmt.Fprintf(b, `<text x="10" y="%d" font-size="11" fill="#555">%s</text>`+"\n", y, xmlEscape(h))
		y += line
	}

	lanes, sgs := l.Size(model.Lane), l.Size(model.Subgroup)
	blocks := l.Size(model.Block) > 1
	// in[s][e]: subgroup s holds element e.
	in := make([][]bool, sgs)
	for s := range in {
		in[s] = make([]bool, len(hs))
	}
	for e, h := range hs {
		for _, p := range h {
			in[p.Subgroup][e] = true
		}
	}
	paths := make([]strings.Builder, sgs)
	firstAt := map[int][]int{} // element -> the subgroups whose first element it is
	for s := range sgs {
		for e := range hs {
			if in[s][e] {
				firstAt[e] = append(firstAt[e], s)
				break
			}
		}
	}
	type label struct {
		x, y int
		text string
	}
	var labels []label

	y += 4
	for p, caption := range captions {
		if caption != "" {
			y += line
			fmt.Fprintf(b, `<text x="%d" y="%d" font-size="12">%s</text>`+"\n", margin, y-4, xmlEscape(caption))
		}
		y += 14 // column numbers
		x0, top := margin, y
		b.WriteString(`<g class="axis" font-size="9">` + "\n")
		for c := 0; c < cols; c += g.colEvery {
			fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle">%d</text>`+"\n", x0+c*g.cw+g.cw/2, top-4, c)
		}
		if len(l.Shape()) > 1 {
			for r := 0; r < rows; r += g.rowEvery {
				fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end">%d</text>`+"\n", x0-4, top+r*g.ch+g.ch/2+3, r)
			}
		}
		b.WriteString("</g>\n")
		fmt.Fprintf(b, `<g font-size="%d" text-anchor="middle">`+"\n", g.font)
		for r := range rows {
			for c := range cols {
				e := base[p] + r*cols + c
				h := hs[e]
				x, cy := x0+c*g.cw, top+r*g.ch
				if len(h) == 0 {
					fmt.Fprintf(b, `<rect class="c" x="%d" y="%d" width="%d" height="%d" fill="#eeeeee"><title>no holder</title></rect>`+"\n", x, cy, g.cw, g.ch)
					continue
				}
				fmt.Fprintf(b, `<rect class="c" x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%s</title></rect>`+"\n",
					x, cy, g.cw, g.ch, laneColour(h[0].Lane, lanes), holdersTitle(h, blocks))
				if g.twoLines {
					fmt.Fprintf(b, `<text class="lane" x="%d" y="%d">%d</text>`+"\n", x+g.cw/2, cy+g.ch/2-2, h[0].Lane)
					v := fmt.Sprintf("v%d", h[0].Value)
					if len(h) > 1 {
						v += fmt.Sprintf(" +%d", len(h)-1)
					}
					fmt.Fprintf(b, `<text class="value" x="%d" y="%d" fill="#333">%s</text>`+"\n", x+g.cw/2, cy+g.ch/2+g.font, v)
				} else {
					fmt.Fprintf(b, `<text class="lane" x="%d" y="%d">%d</text>`+"\n", x+g.cw/2, cy+(g.ch+g.font)/2-1, h[0].Lane)
				}
				if s := firstAt[e]; len(s) > 0 && sgs > 1 {
					labels = append(labels, label{x + 2, cy + 11, "s" + joinInts(s, ",")})
				}
			}
		}
		b.WriteString("</g>\n")
		for s := range sgs {
			outlinePath(&paths[s], func(r, c int) bool {
				return r >= 0 && r < rows && c >= 0 && c < cols && in[s][base[p]+r*cols+c]
			}, rows, cols, x0, top, g.cw, g.ch)
		}
		y += rows*g.ch + 10
	}
	for s := range sgs {
		fmt.Fprintf(b, `<path class="subgroup" d="%s"><title>subgroup %d</title></path>`+"\n", paths[s].String(), s)
	}
	for _, lb := range labels {
		fmt.Fprintf(b, `<text class="sglabel" x="%d" y="%d" font-size="11">%s</text>`+"\n", lb.x, lb.y, lb.text)
	}
	b.WriteString("</g>\n")
	return width, y + 10
}

// outlinePath adds to d the boundary of the cells for which in holds: the
// edges between a cell in and one out (or outside the grid), each run of
// them along one grid line as one segment.
func outlinePath(d *strings.Builder, in func(r, c int) bool, rows, cols, x0, y0, cw, ch int) {
	for r := 0; r <= rows; r++ {
		for c := 0; c < cols; {
			if in(r-1, c) == in(r, c) {
				c++
				continue
			}
			c0 := c
			for c < cols && in(r-1, c) != in(r, c) {
				c++
			}
			fmt.Fprintf(d, "M%d %dH%d", x0+c0*cw, y0+r*ch, x0+c*cw)
		}
	}
	for c := 0; c <= cols; c++ {
		for r := 0; r < rows; {
			if in(r, c-1) == in(r, c) {
				r++
				continue
			}
			r0 := r
			for r < rows && in(r, c-1) != in(r, c) {
				r++
			}
			fmt.Fprintf(d, "M%d %dV%d", x0+c*cw, y0+r0*ch, y0+r*ch)
		}
	}
}

// holdersTitle names the holders of one element for its tooltip.
func holdersTitle(hs []model.HwPoint, blocks bool) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		s := fmt.Sprintf("subgroup %d, lane %d, value %d", h.Subgroup, h.Lane, h.Value)
		if blocks {
			s = fmt.Sprintf("block %d, %s", h.Block, s)
		}
		parts[i] = s
	}
	return strings.Join(parts, "; ")
}

// laneColour gives each of n lanes a fill of its own. Lane l takes place
// l·k mod n of n evenly spaced hues, k coprime with n (so no two lanes
// share a place) and near n/φ², the golden angle, so that lanes next to
// each other lie far apart in hue; places next to each other on the
// wheel differ in lightness too.
func laneColour(lane, n int) string {
	p := lane % n * hueStep(n) % n
	return fmt.Sprintf("hsl(%.1f,70%%,%d%%)", float64(p)*360/float64(n), [3]int{80, 66, 90}[p%3])
}

// hueStep is the step coprime with n nearest to n/φ².
func hueStep(n int) int {
	t := int(math.Round(float64(n) * (3 - math.Sqrt(5)) / 2))
	for d := 0; d <= n; d++ {
		for _, k := range []int{t + d, t - d} {
			if k >= 1 && gcd(k, n) == 1 {
				return k
			}
		}
	}
	return 1
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, sep)
}

// wrapLine breaks a line of text at spaces into lines of at most width
// characters (a word longer than that is cut).
func wrapLine(s string, width int) []string {
	rs := []rune(s)
	var out []string
	for len(rs) > width {
		cut := width
		for i := width; i > 0; i-- {
			if rs[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, string(rs[:cut]))
		rs = []rune(strings.TrimLeft(string(rs[cut:]), " "))
	}
	return append(out, string(rs))
}
