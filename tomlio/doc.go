// Package tomlio reads the planner's TOML files (layout files, graphs, and
// the layout tables that graphs and intrinsic records embed) into validated
// model values, and writes layout files and notations back as TOML; its
// Document and Table are what the record and plan-file readers build on.
// Every problem is a model.Error at file:line:col saying what was expected
// and what was found, and a file's problems are reported all at once.
package tomlio
