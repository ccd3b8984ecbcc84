// Package planner is the layout planner as a library: read a kernel graph,
// build and solve its constraint problem, build the plan from the model
// and replay it in the verifier, explain a graph without a plan, and
// verify a plan file, all under one context that is the only way to stop
// (deadlines, the memory limit and Ctrl-C all cancel it). The command
// line in cmd/planner is flags, calls into this package and printing.
package planner
