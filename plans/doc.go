// Package plans holds what the planner produces and the writers that show
// it: drawings of layouts for people (text grids and SVG) and for tools
// (JSON), and the descriptions of conversions between layouts. It depends
// only on model.
package plans
