package main

// The few msgpack bytes of a cty object with two string attributes, `id` and `input` (cty writes an object as a
// map keyed by attribute name in sorted order; null is 0xc0; an unknown value is extension type 0, d4 00 00, and
// Terraform may send a refined unknown as extension type 12).

import "fmt"

// str is one attribute's value: null, unknown or a known string.
type str struct {
	null, unknown bool
	value         string
}

// object is floor_data's value; nil pointer means the whole object is null.
type object struct {
	id, input str
}

var msgpackNull = []byte{0xc0}

func decodeObject(b []byte) (*object, error) {
	d := decoder{b: b}
	if len(b) == 0 || b[0] == 0xc0 {
		return nil, nil
	}
	n, err := d.mapLen()
	if err != nil {
		return nil, err
	}
	o := &object{}
	for i := 0; i < n; i++ {
		k, err := d.value()
		if err != nil {
			return nil, err
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		switch k.value {
		case "id":
			o.id = v
		case "input":
			o.input = v
		default:
			return nil, fmt.Errorf("floor_data has no attribute %q", k.value)
		}
	}
	return o, nil
}

func encodeObject(o *object) []byte {
	if o == nil {
		return msgpackNull
	}
	out := []byte{0x82}
	for _, kv := range []struct {
		k string
		v str
	}{{"id", o.id}, {"input", o.input}} {
		out = appendString(out, kv.k)
		switch {
		case kv.v.unknown:
			out = append(out, 0xd4, 0x00, 0x00)
		case kv.v.null:
			out = append(out, 0xc0)
		default:
			out = appendString(out, kv.v.value)
		}
	}
	return out
}

func appendString(out []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		out = append(out, 0xa0|byte(n))
	case n < 1<<8:
		out = append(out, 0xd9, byte(n))
	case n < 1<<16:
		out = append(out, 0xda, byte(n>>8), byte(n))
	default:
		out = append(out, 0xdb, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
	return append(out, s...)
}

type decoder struct {
	b   []byte
	pos int
}

func (d *decoder) take(n int) ([]byte, error) {
	if d.pos+n > len(d.b) {
		return nil, fmt.Errorf("msgpack value ends early at byte %d", len(d.b))
	}
	p := d.b[d.pos : d.pos+n]
	d.pos += n
	return p, nil
}

func (d *decoder) uint(n int) (int, error) {
	p, err := d.take(n)
	if err != nil {
		return 0, err
	}
	v := 0
	for _, c := range p {
		v = v<<8 | int(c)
	}
	return v, nil
}

func (d *decoder) mapLen() (int, error) {
	p, err := d.take(1)
	if err != nil {
		return 0, err
	}
	switch c := p[0]; {
	case c&0xf0 == 0x80:
		return int(c & 0x0f), nil
	case c == 0xde:
		return d.uint(2)
	default:
		return 0, fmt.Errorf("expected a msgpack map, got 0x%02x", c)
	}
}

// value reads a string, nil or unknown (extension type 0 or 12, any length).
func (d *decoder) value() (str, error) {
	p, err := d.take(1)
	if err != nil {
		return str{}, err
	}
	c := p[0]
	n := 0
	switch {
	case c == 0xc0:
		return str{null: true}, nil
	case c&0xe0 == 0xa0:
		n = int(c & 0x1f)
	case c == 0xd9 || c == 0xda || c == 0xdb:
		if n, err = d.uint(1 << (c - 0xd9)); err != nil {
			return str{}, err
		}
	case c >= 0xd4 && c <= 0xd8: // fixext 1, 2, 4, 8, 16
		_, err = d.take(1 + 1<<(c-0xd4))
		return str{unknown: true}, err
	case c == 0xc7 || c == 0xc8 || c == 0xc9: // ext 8, 16, 32
		if n, err = d.uint(1 << (c - 0xc7)); err == nil {
			_, err = d.take(1 + n)
		}
		return str{unknown: true}, err
	default:
		return str{}, fmt.Errorf("expected a msgpack string, nil or unknown, got 0x%02x", c)
	}
	s, err := d.take(n)
	return str{value: string(s)}, err
}
