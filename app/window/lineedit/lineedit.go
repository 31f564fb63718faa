// Package lineedit is a one-line text editor for the window's prompts and the editor's fields
// that reads the keyboard the same way at any frame rate.
//
// Text comes from ebiten.AppendInputChars: every character the system typed since the last
// tick, in order, once — including those of the system's key repeat. Editing keys
// (Backspace, Delete, the arrows, Home, End, Enter, Esc, Tab and the Ctrl combinations) come
// from the ticks they were pressed in. Nothing is repeated by counting ticks: under load a
// window runs many ticks per frame, and a tap would look like a held key. A held editing key
// repeats only once it has been seen held for RepeatDelay of wall time across at least three
// frames, which a tap never is.
//
// # Keys
//
// Characters insert at the caret, replacing the selection. ← → move (Shift extends the
// selection), Home and End (Ctrl+A selects all, Ctrl+E goes to the end), Backspace and
// Delete remove a character or the selection, Ctrl+Backspace and Ctrl+W the word before the
// caret, Ctrl+U everything before it, Ctrl+K everything after it. With a Clipboard, Ctrl+C
// copies the selection, Ctrl+X cuts it and Ctrl+V pastes at the caret (line breaks and tabs
// as spaces, at most MaxPaste characters). Enter, Esc and Tab are reported to the caller
// (Action) to submit, cancel or move on.
//
// # Limits
//
// Ebiten reports a key's last press per tick, so two presses of the same editing key in one
// frame count once, and editing keys of a frame apply before its characters (a Backspace
// typed after a character in the same frame deletes the character before it); a Ctrl
// combination in the frame its letter is also typed in is taken for the letter, and a Shift
// first pressed in the frame of a Tab and a capital letter for the letter's (Tab, not
// Shift+Tab). Characters are never lost or doubled.
package lineedit

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// Key repeat of editing keys, in wall time.
const (
	RepeatDelay    = 500 * time.Millisecond
	RepeatInterval = 40 * time.Millisecond
)

// Press is an editing key pressed (or repeated) in a tick.
type Press struct {
	Key         ebiten.Key
	Ctrl, Shift bool
}

// Input is what the keyboard did in one tick: the characters typed, in order, and the editing
// keys pressed.
type Input struct {
	Runes []rune
	Keys  []Press
}

// Empty reports whether nothing was typed or pressed.
func (in *Input) Empty() bool { return len(in.Runes) == 0 && len(in.Keys) == 0 }

// editingKeys are the keys a Line acts on (letters only with Ctrl).
var editingKeys = []ebiten.Key{
	ebiten.KeyBackspace, ebiten.KeyDelete, ebiten.KeyArrowLeft, ebiten.KeyArrowRight,
	ebiten.KeyHome, ebiten.KeyEnd, ebiten.KeyEnter, ebiten.KeyNumpadEnter, ebiten.KeyEscape, ebiten.KeyTab,
	ebiten.KeyA, ebiten.KeyE, ebiten.KeyK, ebiten.KeyU, ebiten.KeyW, ebiten.KeyC, ebiten.KeyV, ebiten.KeyX,
}

// letters are the editing keys that act only with Ctrl, with the letter each types.
var letters = map[ebiten.Key]rune{ebiten.KeyA: 'a', ebiten.KeyE: 'e', ebiten.KeyK: 'k', ebiten.KeyU: 'u', ebiten.KeyW: 'w',
	ebiten.KeyC: 'c', ebiten.KeyV: 'v', ebiten.KeyX: 'x'}

// repeating are the editing keys that repeat while held.
var repeating = []ebiten.Key{ebiten.KeyBackspace, ebiten.KeyDelete, ebiten.KeyArrowLeft, ebiten.KeyArrowRight}

// Keyboard reads Input tick by tick. Its owner calls Read once per tick while text is being
// edited and Drawn once per drawn frame. Game goroutine.
type Keyboard struct {
	frames uint64
	held   map[ebiten.Key]*holding
	runes  []rune
}

// holding follows a held repeating key.
type holding struct {
	since  time.Time // when it was first seen held
	frame  uint64    // the frame it was first seen held in
	repeat int       // repeats given so far
}

// Drawn counts a drawn frame: the keyboard is polled once per frame, so frames, not ticks,
// tell a held key from a tap.
func (k *Keyboard) Drawn() { k.frames++ }

// Read returns this tick's input. The returned slices are valid until the next Read.
func (k *Keyboard) Read(now time.Time) Input {
	k.runes = ebiten.AppendInputChars(k.runes[:0])
	in := Input{Runes: k.runes}
	ctrl := ebiten.IsKeyPressed(ebiten.KeyControl) || ebiten.IsKeyPressed(ebiten.KeyMeta)
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	// A Shift pressed in this tick: inpututil has seen it down for at most this tick (0: it
	// was pressed and let go within the tick, which ebiten still reports as pressed).
	shiftTyped := shift && inpututil.KeyPressDuration(ebiten.KeyShift) <= 1 && slices.ContainsFunc(in.Runes, unicode.IsUpper)
	for _, key := range editingKeys {
		if !inpututil.IsKeyJustPressed(key) {
			continue
		}
		if l, ok := letters[key]; ok {
			// Ctrl counts when it was down at any point of the tick, so a letter typed just
			// after Ctrl+A in the same frame looks like Ctrl+letter; but Ctrl+letter types
			// nothing, so when the letter was typed, its key's last press was a plain one.
			if !ctrl || slices.ContainsFunc(in.Runes, func(r rune) bool { return unicode.ToLower(r) == l }) {
				continue
			}
		}
		p := Press{Key: key, Ctrl: ctrl, Shift: shift}
		if key == ebiten.KeyTab && shiftTyped {
			// Shift, too, counts when it was down at any point of the tick: Tab and then a
			// capital letter in one frame (a display name typed on after the id) looked like
			// Shift+Tab and sent the keyboard back a field. A Shift first pressed in this tick
			// that typed a capital was the letter's; held from an earlier tick it is Tab's.
			p.Shift = false
		}
		in.Keys = append(in.Keys, p)
	}
	if k.held == nil {
		k.held = map[ebiten.Key]*holding{}
	}
	for _, key := range repeating {
		if !ebiten.IsKeyPressed(key) {
			delete(k.held, key)
			continue
		}
		h := k.held[key]
		if h == nil || inpututil.IsKeyJustPressed(key) {
			k.held[key] = &holding{since: now, frame: k.frames}
			continue
		}
		if k.frames < h.frame+3 {
			continue
		}
		// At most a few at once: a frame that stalled must not empty the field.
		due := min(int((now.Sub(h.since)-RepeatDelay)/RepeatInterval), h.repeat+4)
		for ; h.repeat < due; h.repeat++ {
			in.Keys = append(in.Keys, Press{Key: key, Ctrl: ctrl, Shift: shift})
		}
	}
	return in
}

// Action is what a key asks of the caller.
type Action int

// Actions.
const (
	None   Action = iota
	Submit        // Enter
	Cancel        // Esc
	Next          // Tab
	Prev          // Shift+Tab
)

// Clipboard is the system clipboard a Line copies to and pastes from.
type Clipboard interface {
	ReadText() string
	WriteText(s string)
}

// MaxPaste is the most characters a paste inserts.
const MaxPaste = 4096

// Line is a line of text with a caret and a selection (between anchor and caret).
type Line struct {
	text          []rune
	caret, anchor int
	// Clip is the clipboard of Ctrl+C, Ctrl+X and Ctrl+V; nil: none.
	Clip Clipboard
}

// SetText replaces the text and puts the caret at its end, selecting nothing.
func (l *Line) SetText(s string) {
	l.text = []rune(s)
	l.caret, l.anchor = len(l.text), len(l.text)
}

// Text returns the text.
func (l *Line) Text() string { return string(l.text) }

// Len is the length of the text in characters.
func (l *Line) Len() int { return len(l.text) }

// Caret returns the caret's position, in characters from the start.
func (l *Line) Caret() int { return l.caret }

// Selection returns the selected range [from, to) in characters; from == to when nothing is
// selected.
func (l *Line) Selection() (from, to int) { return min(l.caret, l.anchor), max(l.caret, l.anchor) }

// SelectAll selects the whole text, the caret at its end.
func (l *Line) SelectAll() { l.anchor, l.caret = 0, len(l.text) }

// MoveTo puts the caret at position i (clamped), selecting nothing.
func (l *Line) MoveTo(i int) { l.caret = min(max(i, 0), len(l.text)); l.anchor = l.caret }

// Apply edits the line with in: its editing keys first, then its characters. It returns
// whether the text changed and the first action asked for (the keys after it are left out).
func (l *Line) Apply(in Input) (changed bool, act Action) {
	before := slices.Clone(l.text)
	for _, p := range in.Keys {
		if act = l.press(p); act != None {
			break
		}
	}
	if act == None || act == Submit || act == Next || act == Prev {
		// Characters typed with Enter or Tab in one frame come before them.
		for _, r := range in.Runes {
			if unicode.IsPrint(r) {
				l.insert(r)
			}
		}
	}
	return !slices.Equal(before, l.text), act
}

// paste inserts s at the caret in place of the selection: its line breaks and tabs as
// spaces (a trailing line break dropped), other unprintable characters left out, at most
// MaxPaste characters.
func (l *Line) paste(s string) {
	s = strings.TrimRight(s, "\r\n")
	var rs []rune
	for _, r := range s {
		if len(rs) == MaxPaste {
			break
		}
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			rs = append(rs, ' ')
		case unicode.IsPrint(r):
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return
	}
	l.deleteSelection()
	l.text = slices.Insert(l.text, l.caret, rs...)
	l.caret += len(rs)
	l.anchor = l.caret
}

func (l *Line) insert(r rune) {
	l.deleteSelection()
	l.text = slices.Insert(l.text, l.caret, r)
	l.caret++
	l.anchor = l.caret
}

// deleteSelection removes the selected text; it reports whether there was any.
func (l *Line) deleteSelection() bool {
	from, to := l.Selection()
	if from == to {
		return false
	}
	l.text = slices.Delete(l.text, from, to)
	l.caret, l.anchor = from, from
	return true
}

// move puts the caret at i, extending the selection when extend is set.
func (l *Line) move(i int, extend bool) {
	l.caret = min(max(i, 0), len(l.text))
	if !extend {
		l.anchor = l.caret
	}
}

// wordStart is the start of the word before position i (spaces and punctuation such as / . -
// separate words).
func (l *Line) wordStart(i int) int {
	for i > 0 && !wordRune(l.text[i-1]) {
		i--
	}
	for i > 0 && wordRune(l.text[i-1]) {
		i--
	}
	return i
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

func (l *Line) press(p Press) Action {
	if p.Ctrl {
		switch p.Key {
		case ebiten.KeyA:
			l.SelectAll()
		case ebiten.KeyE:
			l.move(len(l.text), false)
		case ebiten.KeyU:
			if !l.deleteSelection() {
				l.text = slices.Delete(l.text, 0, l.caret)
				l.caret, l.anchor = 0, 0
			}
		case ebiten.KeyK:
			l.text = l.text[:l.caret]
			l.anchor = l.caret
		case ebiten.KeyW, ebiten.KeyBackspace:
			if !l.deleteSelection() {
				s := l.wordStart(l.caret)
				l.text = slices.Delete(l.text, s, l.caret)
				l.caret, l.anchor = s, s
			}
		case ebiten.KeyC, ebiten.KeyX:
			if from, to := l.Selection(); from != to && l.Clip != nil {
				l.Clip.WriteText(string(l.text[from:to]))
				if p.Key == ebiten.KeyX {
					l.deleteSelection()
				}
			}
		case ebiten.KeyV:
			if l.Clip != nil {
				l.paste(l.Clip.ReadText())
			}
		}
		return None
	}
	switch p.Key {
	case ebiten.KeyBackspace:
		if !l.deleteSelection() && l.caret > 0 {
			l.text = slices.Delete(l.text, l.caret-1, l.caret)
			l.caret--
			l.anchor = l.caret
		}
	case ebiten.KeyDelete:
		if !l.deleteSelection() && l.caret < len(l.text) {
			l.text = slices.Delete(l.text, l.caret, l.caret+1)
		}
	case ebiten.KeyArrowLeft:
		if from, to := l.Selection(); from != to && !p.Shift {
			l.move(from, false)
		} else {
			l.move(l.caret-1, p.Shift)
		}
	case ebiten.KeyArrowRight:
		if from, to := l.Selection(); from != to && !p.Shift {
			l.move(to, false)
		} else {
			l.move(l.caret+1, p.Shift)
		}
	case ebiten.KeyHome:
		l.move(0, p.Shift)
	case ebiten.KeyEnd:
		l.move(len(l.text), p.Shift)
	case ebiten.KeyEnter, ebiten.KeyNumpadEnter:
		return Submit
	case ebiten.KeyEscape:
		return Cancel
	case ebiten.KeyTab:
		if p.Shift {
			return Prev
		}
		return Next
	}
	return None
}
