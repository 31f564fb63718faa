package timeline

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The <plugin> element of Gazebo's TimelinePublisher system, as encoding/xml reads it. Unknown elements and attributes
// are collected so that they can be reported instead of silently ignored.
type xmlPlugin struct {
	XMLName   xml.Name      `xml:"plugin"`
	Name      string        `xml:"name,attr"`
	Filename  string        `xml:"filename,attr"`
	Loop      *xmlText      `xml:"loop"`
	Period    *xmlText      `xml:"period"`
	Keyframes []xmlKeyframe `xml:"keyframe"`
	Other     []xmlAny      `xml:",any"`
	OtherAttr []xml.Attr    `xml:",any,attr"`
}

type xmlText struct {
	Text string `xml:",chardata"`
}

type xmlKeyframe struct {
	Time      *string      `xml:"time,attr"`
	Outputs   []xmlOutput  `xml:"output"`
	Services  []xmlService `xml:"service"`
	Other     []xmlAny     `xml:",any"`
	OtherAttr []xml.Attr   `xml:",any,attr"`
}

type xmlOutput struct {
	Topic     string     `xml:"topic,attr"`
	Type      string     `xml:"type,attr"`
	Content   string     `xml:",chardata"`
	Other     []xmlAny   `xml:",any"`
	OtherAttr []xml.Attr `xml:",any,attr"`
}

type xmlService struct {
	Name      string     `xml:"name,attr"`
	ReqType   string     `xml:"reqType,attr"`
	RepType   string     `xml:"repType,attr"`
	Timeout   string     `xml:"timeout,attr"`
	ReqMsg    string     `xml:"reqMsg,attr"`
	Content   string     `xml:",chardata"`
	Other     []xmlAny   `xml:",any"`
	OtherAttr []xml.Attr `xml:",any,attr"`
}

type xmlAny struct {
	XMLName xml.Name
}

// ignoredElements are generic gz-sim system elements that are not the timeline's own:
// <gz:system_priority> orders the systems and is read by systems.Build.
var ignoredElements = []string{"system_priority"}

// ConfigureXML reads the TimelinePublisher's <plugin> element, pasted verbatim from a Gazebo world:
//
//	<plugin filename="gz-sim-timeline-publisher-system" name="systems::TimelinePublisher">
//	  <loop>true</loop> <period>4</period>
//	  <keyframe time="0"><output topic="/t" type="gz.msgs.Double">data: 1.0</output></keyframe>
//	  <keyframe time="2"><service name="/s" reqType="gz.msgs.Boolean" repType="gz.msgs.Boolean"
//	    timeout="500" reqMsg="data: true"/></keyframe>
//	</plugin>
//
// It fills Config; Validate then checks the values. Unknown elements and attributes are
// errors, except gz's generic <gz:system_priority>, which systems.Build reads.
func (p *Publisher) ConfigureXML(element []byte) error {
	var x xmlPlugin
	dec := xml.NewDecoder(bytes.NewReader(element))
	if err := dec.Decode(&x); err != nil {
		return fmt.Errorf("read <plugin> element: %w", err)
	}
	if err := unknown("<plugin>", x.Other, x.OtherAttr); err != nil {
		return err
	}
	if !ours(x.Name) && !ours(x.Filename) && x.Name+x.Filename != "" {
		return fmt.Errorf("the <plugin> element names %q (file %q), not the timeline publisher (%s)",
			x.Name, x.Filename, strings.Join(append([]string{ID}, Aliases...), ", "))
	}
	var c Config
	if x.Loop != nil {
		v, err := strconv.ParseBool(strings.TrimSpace(x.Loop.Text))
		if err != nil {
			return fmt.Errorf("<loop>%s</loop>: want true or false", x.Loop.Text)
		}
		c.Loop = v
	}
	if x.Period != nil {
		v, err := strconv.ParseFloat(strings.TrimSpace(x.Period.Text), 64)
		if err != nil {
			return fmt.Errorf("<period>%s</period>: want a number of seconds", x.Period.Text)
		}
		c.Period = v
	}
	for i, k := range x.Keyframes {
		where := fmt.Sprintf("keyframe %d", i+1)
		if err := unknown("<keyframe> ("+where+")", k.Other, k.OtherAttr); err != nil {
			return err
		}
		if k.Time == nil {
			return fmt.Errorf("%s: the time attribute (seconds) is missing", where)
		}
		t, err := strconv.ParseFloat(strings.TrimSpace(*k.Time), 64)
		if err != nil {
			return fmt.Errorf("%s: time=%q: want a number of seconds", where, *k.Time)
		}
		kf := Keyframe{Time: t}
		for j, o := range k.Outputs {
			if err := unknown(fmt.Sprintf("<output> (%s output %d)", where, j+1), o.Other, o.OtherAttr); err != nil {
				return err
			}
			kf.Outputs = append(kf.Outputs, Output{Topic: o.Topic, Type: o.Type, Content: o.Content})
		}
		for j, s := range k.Services {
			sw := fmt.Sprintf("%s service %d", where, j+1)
			if err := unknown("<service> ("+sw+")", s.Other, s.OtherAttr); err != nil {
				return err
			}
			svc := Service{Name: s.Name, ReqType: s.ReqType, RepType: s.RepType, ReqMsg: s.ReqMsg}
			if body := strings.TrimSpace(s.Content); body != "" {
				if strings.TrimSpace(s.ReqMsg) != "" {
					return fmt.Errorf("%s: give the request either as reqMsg or as the element's content, not both", sw)
				}
				svc.ReqMsg = body
			}
			if s.Timeout != "" {
				ms, err := strconv.Atoi(strings.TrimSpace(s.Timeout))
				if err != nil {
					return fmt.Errorf("%s: timeout=%q: want whole milliseconds", sw, s.Timeout)
				}
				svc.Timeout = ms
			}
			kf.Services = append(kf.Services, svc)
		}
		c.Keyframes = append(c.Keyframes, kf)
	}
	p.Config = c
	return nil
}

// ours reports whether a name or filename attribute is one of this system's names; a file
// name may be spelled as the library, libgz-sim-timeline-publisher-system.so.
func ours(s string) bool {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "lib"), ".so")
	return s == ID || slices.Contains(Aliases, s)
}

func unknown(where string, elems []xmlAny, attrs []xml.Attr) error {
	var bad []string
	for _, e := range elems {
		if !slices.Contains(ignoredElements, e.XMLName.Local) {
			bad = append(bad, "<"+qname(e.XMLName)+">")
		}
	}
	for _, a := range attrs {
		if a.Name.Space != "xmlns" && a.Name.Local != "xmlns" {
			bad = append(bad, qname(a.Name)+"=")
		}
	}
	if len(bad) > 0 {
		return errors.New(where + ": unknown " + strings.Join(bad, ", ") + " (the TimelinePublisher's parameters are loop, period, keyframe, output, service)")
	}
	return nil
}

func qname(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}
