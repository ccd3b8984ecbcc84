package plans

import (
	"fmt"
	"strings"

	"planner/model"
)

// DescribeConversion writes a conversion in words and numbers.
func DescribeConversion(c *model.Conversion) string {
	var b strings.Builder
	switch c.Kind {
	case model.ConvNone:
		b.WriteString("conversion: none, the layouts are equal\n")
	case model.ConvRegister:
		b.WriteString("conversion: register permutation (every lane already holds the elements it needs)\n")
		fmt.Fprintf(&b, "  moves: %d of %d destination words per lane are assembled (prmt/mov); the rest are renamed\n", c.Moves, c.Words)
	case model.ConvShuffle:
		b.WriteString("conversion: shuffles within each subgroup\n")
		fmt.Fprintf(&b, "  rounds: %d (a lane reads %d 32-bit words from other lanes, one shuffle each)\n", c.Rounds, c.Rounds)
		fmt.Fprintf(&b, "  moves: %d of %d destination words per lane are assembled after the exchange\n", c.Moves, c.Words)
	case model.ConvShared:
		across := "data crosses subgroups"
		switch {
		case c.CrossesBlocks:
			across = "data crosses blocks (distributed shared memory)"
		case c.Transpositions > 0:
			// LowerShuffles: the why line below says why.
			across = "the data stays in each subgroup; the target's compiler does not shuffle it"
		}
		fmt.Fprintf(&b, "conversion: round trip through shared memory (%s)\n", across)
		fmt.Fprintf(&b, "  scratch: %d bytes, row major with dim%d fastest\n", c.ScratchBytes, c.ScratchOrder[0])
		if c.StoreRecord != "" {
			fmt.Fprintf(&b, "  store: %d bytes by %s, %d per lane\n", c.StoreBytes, c.StoreRecord, c.Stores)
		} else {
			fmt.Fprintf(&b, "  store: %d bytes in %d-element vectors, %d stores per lane\n", c.StoreBytes, c.StoreVector, c.Stores)
		}
		if c.LoadRecord != "" {
			fmt.Fprintf(&b, "  load: %d bytes by %s, %d per lane\n", c.LoadBytes, c.LoadRecord, c.Loads)
		} else {
			fmt.Fprintf(&b, "  load: %d bytes in %d-element vectors, %d loads per lane\n", c.LoadBytes, c.LoadVector, c.Loads)
		}
		if len(c.ScratchRow) > 0 {
			fmt.Fprintf(&b, "  rows: 16 bytes along %s\n", describeRow(c.ScratchRow))
		}
		if c.Moves > 0 {
			fmt.Fprintf(&b, "  moves: %d byte permutes per lane gather the vectors' words\n", c.Moves)
		}
	}
	if c.Reason() != "" {
		fmt.Fprintf(&b, "  why: %s\n", c.Reason())
	}
	return b.String()
}

// ConversionJSON is the conversion analysis for tools.
type ConversionJSON struct {
	SchemaVersion int    `json:"schema_version"`
	From          string `json:"from"`
	To            string `json:"to"`
	DType         string `json:"dtype"`
	Kind          string `json:"kind"`
	Words         int    `json:"words"`
	Moves         int    `json:"moves"`
	Rounds        int    `json:"rounds"`
	ScratchBytes  int    `json:"scratch_bytes,omitempty"`
	ScratchOrder  []int  `json:"scratch_order,omitempty"`
	StoreVector   int    `json:"store_vector,omitempty"`
	LoadVector    int    `json:"load_vector,omitempty"`
	Stores        int    `json:"stores,omitempty"`
	Loads         int    `json:"loads,omitempty"`
	StoreBytes    int    `json:"store_bytes,omitempty"`
	LoadBytes     int    `json:"load_bytes,omitempty"`
	CrossBlocks   bool   `json:"crosses_blocks,omitempty"`
	Reason        string `json:"reason,omitempty"`
}

// NewConversionJSON builds the JSON view of a conversion.
func NewConversionJSON(from, to string, dt model.DType, c *model.Conversion) *ConversionJSON {
	return &ConversionJSON{
		SchemaVersion: SchemaVersion, From: from, To: to, DType: dt.Name, Kind: c.Kind.String(), Words: c.Words, Moves: c.Moves, Rounds: c.Rounds,
		ScratchBytes: c.ScratchBytes, ScratchOrder: c.ScratchOrder, StoreVector: c.StoreVector, LoadVector: c.LoadVector,
		Stores: c.Stores, Loads: c.Loads, StoreBytes: c.StoreBytes, LoadBytes: c.LoadBytes, CrossBlocks: c.CrossesBlocks, Reason: c.Reason(),
	}
}

// describeRow names a scratch row's digits, lowest first: "dim1 bit 5,
// dim0 bit 0, dim0 bit 1".
func describeRow(row []model.DigitRef) string {
	parts := make([]string, len(row))
	for i, d := range row {
		parts[i] = fmt.Sprintf("dim%d bit %d", d.Axis, d.Digit)
	}
	return strings.Join(parts, ", ")
}
