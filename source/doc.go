// Package source reads the planner's TOML inputs into validated model
// values and writes them back: layout files now, and the layout tables that
// graphs and intrinsic records embed. It is the one place where text
// positions become errors: every problem is reported as file:line:col, what
// was expected and what was found, and all problems of a file at once.
package source
