// Package intrinsics holds the intrinsic and target records, one TOML file
// each, embedded in the binary, and loads them (with any user-written
// records beside them) into model values. Every layout fact in a record
// cites its vendor source in a comment, and a test compares each record's
// fragments with a table typed in from that source.
package intrinsics
