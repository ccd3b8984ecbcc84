// Package planfile is the plan file: a plan written as TOML by Write
// (planner solve --format toml), with every exact layout and claim a
// replay needs, and read back by Read and Rebuild into the plan and the
// assignment it describes (planner verify). Reader and writer sit side by
// side so the format changes in one place; every read error is a
// model.Error at file:line:col.
package planfile
