package cp

type ContactBuffer struct {
	// header
	stamp       uint
	next        *ContactBuffer
	numContacts int

	// buffer itself: CONTACTS_BUFFER_SIZE contacts, or fewer (NewContactBufferOf)
	contacts []Contact
}

func NewContactBuffer(stamp uint, slice *ContactBuffer) *ContactBuffer {
	return NewContactBufferOf(CONTACTS_BUFFER_SIZE, stamp, slice)
}

// NewContactBufferOf is NewContactBuffer with room for size contacts (at least
// MAX_CONTACTS_PER_ARBITER).
func NewContactBufferOf(size int, stamp uint, slice *ContactBuffer) *ContactBuffer {
	size = max(size, MAX_CONTACTS_PER_ARBITER)
	buffer := &ContactBuffer{contacts: make([]Contact, size)} // zeroed by make: no second clearing
	return buffer.InitHeader(stamp, slice)
}

func (c *ContactBuffer) InitHeader(stamp uint, splice *ContactBuffer) *ContactBuffer {
	c.stamp = stamp
	if splice != nil {
		c.next = splice.next
	} else {
		c.next = c
	}
	c.numContacts = 0

	return c
}
