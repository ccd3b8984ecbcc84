package tomlio

import "planner/model"

// ParseWhole reads a graph from its whole document, never streamed.
func ParseWhole(file string, data []byte, targets map[string]*model.Target) (*model.Graph, error) {
	doc, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	g, _, err := readGraph(doc, targets)
	return g, err
}

// ReadStreamed reports whether ParseGraph reads the graph streamed.
func ReadStreamed(file string, data []byte, targets map[string]*model.Target) bool {
	doc, ok := parseStreamed(file, data)
	if !ok {
		return false
	}
	_, whole, err := readGraph(doc, targets)
	return err == nil && !whole
}
