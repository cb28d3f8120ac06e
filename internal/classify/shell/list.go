package shell

// list collects one of Program's lists (its commands, its names …) while the program is
// analysed: in blocks that are filled and never copied, made into one slice at the end
// (slice). append would grow one long slice by about a third at a time, copying it each
// time, and a large program's commands and names number in the thousands: the copies cost
// three to five times the bytes of the list, the blocks and the final slice about twice (and
// a fresh process pays page faults for every new page).
type list[T any] struct {
	full  [][]T // the blocks filled, in order
	last  []T   // the block being filled
	n     int   // elements in all
	taken int   // elements handed out by take
}

// blockLen is the length of a full-grown block. The first blocks double in length up to it
// (4, 8, 16 …), so that a short list (most programs are a command or two) stays small.
const blockLen = 256

func (l *list[T]) add(v T) {
	if len(l.last) == cap(l.last) {
		if l.last != nil {
			l.full = append(l.full, l.last)
		}
		l.last = make([]T, 0, min(max(2*cap(l.last), 4), blockLen))
	}
	l.last = append(l.last, v)
	l.n++
}

// len is the number of elements.
func (l *list[T]) len() int { return l.n }

// at is the i-th element, to change it in place.
func (l *list[T]) at(i int) *T {
	for _, b := range l.full {
		if i < len(b) {
			return &b[i]
		}
		i -= len(b)
	}
	return &l.last[i]
}

// appendFrom appends the elements from the i-th on to dst.
func (l *list[T]) appendFrom(dst []T, i int) []T {
	for _, b := range l.full {
		if i < len(b) {
			dst = append(dst, b[i:]...)
			i = 0
		} else {
			i -= len(b)
		}
	}
	return append(dst, l.last[i:]...)
}

// slice is every element in one slice: the block itself when there is only one, nil when
// there is none (as append would leave it).
func (l *list[T]) slice() []T {
	if len(l.full) == 0 {
		return l.last
	}
	return l.appendFrom(make([]T, 0, l.n), 0)
}

// take returns the elements added since the last take, in one slice that is the caller's
// own: the block itself, capped, when they lie in one block (the list goes on filling it past
// them), a copy when they span blocks. An element taken is not the list's to change any more.
func (l *list[T]) take() []T {
	from, to := l.taken, l.n
	l.taken = l.n
	if from == to {
		return nil
	}
	if start := to - len(l.last); from >= start { // all in the block being filled
		return l.last[from-start : len(l.last) : len(l.last)]
	}
	return l.appendFrom(make([]T, 0, to-from), from)
}
