package ir

import (
	"fmt"
	"strings"

	"planner/model"
)

// tokKind classifies a token of MLIR's text (llvm/llvm-project,
// mlir/docs/LangRef.md, "Lexical Syntax"; mlir/lib/AsmParser/Lexer.cpp).
type tokKind int

const (
	tEOF          tokKind = iota
	tBareID               // f32, vector, arith.addf, iter_args
	tValueID              // %9, %arg0 (Text without the %)
	tBlockID              // ^bb0
	tSymbol               // @name, @"quoted"
	tHashID               // #map, #gpu.address_space (Text without the #)
	tBangID               // !alias, !dialect.type (Text without the !)
	tInt                  // 42, 0x2A
	tFloat                // 1.0, 2.5e-3
	tString               // "text" (Text unquoted, escapes resolved)
	tArrow                // ->
	tPunct                // one of ( ) [ ] { } < > , : = * ? + - . | and any other byte
	tFileMetadata         // {-# ... #-}
)

var tokNames = [...]string{
	tEOF: "the end of the file", tBareID: "an identifier", tValueID: "a value name", tBlockID: "a block label",
	tSymbol: "a symbol", tHashID: "an attribute alias", tBangID: "a type alias", tInt: "an integer",
	tFloat: "a number", tString: "a string", tArrow: "->", tPunct: "punctuation", tFileMetadata: "file metadata",
}

// token is one lexeme with the position of its first byte.
type token struct {
	kind tokKind
	text string // the lexeme's meaning: without sigils and quotes
	raw  string // the lexeme as written
	pos  model.Pos
	off  int // byte offset of the token's start
	end  int // byte offset just past it
	// line and col at the start, to restart the lexer there.
	line, col int
}

func (t token) is(punct string) bool { return t.kind == tPunct && t.text == punct }

// describe names the token for messages: its text, quoted.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end of the file"
	case tString:
		return fmt.Sprintf("the string %q", t.text)
	}
	raw := t.raw
	if len(raw) > 40 {
		raw = raw[:40] + "..."
	}
	return "'" + raw + "'"
}

// lexer reads tokens from src[off:end], counting lines and columns (bytes,
// from 1), as MLIR's diagnostics do.
type lexer struct {
	file      string
	src       string
	off, end  int
	line, col int
}

func newLexer(file, src string) *lexer {
	return &lexer{file: file, src: src, end: len(src), line: 1, col: 1}
}

func (lx *lexer) pos() model.Pos { return model.Pos{File: lx.file, Line: lx.line, Col: lx.col} }

// advance moves past n bytes, counting lines.
func (lx *lexer) advance(n int) {
	for i := 0; i < n && lx.off < lx.end; i++ {
		if lx.src[lx.off] == '\n' {
			lx.line++
			lx.col = 1
		} else {
			lx.col++
		}
		lx.off++
	}
}

func (lx *lexer) peekByte(k int) byte {
	if lx.off+k < lx.end {
		return lx.src[lx.off+k]
	}
	return 0
}

// skipSpace skips white space and // comments.
func (lx *lexer) skipSpace() {
	for lx.off < lx.end {
		c := lx.src[lx.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.advance(1)
		case c == '/' && lx.peekByte(1) == '/':
			for lx.off < lx.end && lx.src[lx.off] != '\n' {
				lx.advance(1)
			}
		default:
			return
		}
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// bareIDChar: the characters after a bare identifier's first.
func bareIDChar(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.' }

// suffixIDChar: the characters of a value or block name after its first.
func suffixIDChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.' || c == '-'
}

// lexError is a token the lexer cannot read; the parser reports it.
type lexError struct {
	pos model.Pos
	msg string
}

// next reads one token. A malformed token is returned as an error.
func (lx *lexer) next() (token, *lexError) {
	lx.skipSpace()
	t := token{pos: lx.pos(), off: lx.off, line: lx.line, col: lx.col}
	finish := func(kind tokKind, text string) (token, *lexError) {
		t.kind, t.text, t.raw, t.end = kind, text, lx.src[t.off:lx.off], lx.off
		return t, nil
	}
	if lx.off >= lx.end {
		return finish(tEOF, "")
	}
	c := lx.src[lx.off]
	switch {
	case isLetter(c) || c == '_':
		start := lx.off
		for lx.off < lx.end && bareIDChar(lx.src[lx.off]) {
			lx.advance(1)
		}
		return finish(tBareID, lx.src[start:lx.off])
	case isDigit(c):
		return lx.number(t)
	case c == '%' || c == '^':
		lx.advance(1)
		start := lx.off
		if lx.off < lx.end && isDigit(lx.src[lx.off]) {
			for lx.off < lx.end && isDigit(lx.src[lx.off]) {
				lx.advance(1)
			}
		} else {
			for lx.off < lx.end && suffixIDChar(lx.src[lx.off]) {
				lx.advance(1)
			}
		}
		if lx.off == start {
			what := "value name"
			if c == '^' {
				what = "block label"
			}
			return t, &lexError{t.pos, fmt.Sprintf("expected a %s after '%c'", what, c)}
		}
		kind := tValueID
		if c == '^' {
			kind = tBlockID
		}
		return finish(kind, lx.src[start:lx.off])
	case c == '@':
		lx.advance(1)
		if lx.peekByte(0) == '"' {
			s, err := lx.stringBody(t.pos)
			if err != nil {
				return t, err
			}
			return finish(tSymbol, s)
		}
		start := lx.off
		for lx.off < lx.end && (bareIDChar(lx.src[lx.off]) || lx.src[lx.off] == '-') {
			lx.advance(1)
		}
		if lx.off == start {
			return t, &lexError{t.pos, "expected a symbol name after '@'"}
		}
		return finish(tSymbol, lx.src[start:lx.off])
	case (c == '#' || c == '!') && (isLetter(lx.peekByte(1)) || lx.peekByte(1) == '_'):
		lx.advance(1)
		start := lx.off
		if lx.off < lx.end && (isLetter(lx.src[lx.off]) || lx.src[lx.off] == '_') {
			for lx.off < lx.end && bareIDChar(lx.src[lx.off]) {
				lx.advance(1)
			}
		}
		kind := tHashID
		if c == '!' {
			kind = tBangID
		}
		return finish(kind, lx.src[start:lx.off])
	case c == '"':
		s, err := lx.stringBody(t.pos)
		if err != nil {
			return t, err
		}
		return finish(tString, s)
	case c == '-' && lx.peekByte(1) == '>':
		lx.advance(2)
		return finish(tArrow, "->")
	case c == '{' && lx.peekByte(1) == '-' && lx.peekByte(2) == '#':
		end := strings.Index(lx.src[lx.off:lx.end], "#-}")
		if end < 0 {
			return t, &lexError{t.pos, "file metadata '{-#' is not closed by '#-}'"}
		}
		lx.advance(end + 3)
		return finish(tFileMetadata, "")
	}
	lx.advance(1)
	return finish(tPunct, string(c))
}

// number reads an integer (decimal or 0x hexadecimal) or a float
// ([0-9]+ . [0-9]* ([eE][+-]?[0-9]+)?).
func (lx *lexer) number(t token) (token, *lexError) {
	start := lx.off
	if lx.src[lx.off] == '0' && lx.peekByte(1) == 'x' && isHex(lx.peekByte(2)) {
		lx.advance(2)
		for lx.off < lx.end && isHex(lx.src[lx.off]) {
			lx.advance(1)
		}
		t.kind, t.text, t.raw, t.end = tInt, lx.src[start:lx.off], lx.src[start:lx.off], lx.off
		return t, nil
	}
	for lx.off < lx.end && isDigit(lx.src[lx.off]) {
		lx.advance(1)
	}
	kind := tInt
	if lx.peekByte(0) == '.' {
		kind = tFloat
		lx.advance(1)
		for lx.off < lx.end && isDigit(lx.src[lx.off]) {
			lx.advance(1)
		}
		if c := lx.peekByte(0); c == 'e' || c == 'E' {
			k := 1
			if s := lx.peekByte(1); s == '+' || s == '-' {
				k = 2
			}
			if isDigit(lx.peekByte(k)) {
				lx.advance(k)
				for lx.off < lx.end && isDigit(lx.src[lx.off]) {
					lx.advance(1)
				}
			}
		}
	}
	t.kind, t.text, t.raw, t.end = kind, lx.src[start:lx.off], lx.src[start:lx.off], lx.off
	return t, nil
}

// stringBody reads a quoted string at the lexer's position, resolving the
// escapes MLIR knows (\n \t \" \\ and two hex digits).
func (lx *lexer) stringBody(at model.Pos) (string, *lexError) {
	lx.advance(1) // the opening quote
	var b strings.Builder
	for {
		if lx.off >= lx.end {
			return "", &lexError{at, "the string is not closed: expected '\"' before the end of the file"}
		}
		c := lx.src[lx.off]
		switch c {
		case '"':
			lx.advance(1)
			return b.String(), nil
		case '\n':
			return "", &lexError{at, "the string is not closed on its line: expected '\"'"}
		case '\\':
			n := lx.peekByte(1)
			switch {
			case n == 'n':
				b.WriteByte('\n')
				lx.advance(2)
			case n == 't':
				b.WriteByte('\t')
				lx.advance(2)
			case n == '"' || n == '\\':
				b.WriteByte(n)
				lx.advance(2)
			case isHex(n) && isHex(lx.peekByte(2)):
				var v byte
				fmt.Sscanf(lx.src[lx.off+1:lx.off+3], "%02x", &v)
				b.WriteByte(v)
				lx.advance(3)
			default:
				p := lx.pos()
				return "", &lexError{p, "unknown escape in a string: MLIR knows \\n, \\t, \\\", \\\\ and two hex digits"}
			}
		default:
			b.WriteByte(c)
			lx.advance(1)
		}
	}
}

// state and restore let the parser read a stretch of text its own way (a
// dimension list, a dialect attribute's body) and go on after it.
type lexState struct{ off, line, col int }

func (lx *lexer) state() lexState    { return lexState{lx.off, lx.line, lx.col} }
func (lx *lexer) restore(s lexState) { lx.off, lx.line, lx.col = s.off, s.line, s.col }
