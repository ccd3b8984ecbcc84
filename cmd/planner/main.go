// Command planner chooses GPU data layouts: it reads layouts, kernel graphs
// and intrinsic records, and writes plans, drawings and explanations.
package main

import "os"

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }
