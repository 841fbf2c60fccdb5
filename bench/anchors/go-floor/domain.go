package main

// floor_domain: a second resource type with exactly virtseed_domain's schema that does nothing but echo, so the
// bench can time what Terraform itself pays for that schema (110 attributes where floor_data has 2) with a Go
// plugin. The schema is read at start from the JSON file named by FLOOR_DOMAIN_SCHEMA: one resource's entry of
// `terraform providers schema -json` ({"version":..,"block":{"attributes":{..},"block_types":{..}}}). Without the
// variable the type is not offered. Values go through go-cty (Debian's golang-github-zclconf-go-cty-dev), which
// reads any msgpack extension as an unknown value, so refined unknowns need no code here. The schema may use
// protocol-6 nested attributes ("nested_type"), and FLOOR_DOMAIN_EMPTY_COLLECTIONS=1 makes the plan fill null
// computed lists, sets and maps with empty ones: the bench's schema variants (bench/private/schema-variants.ts).

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"

	"terraform-provider-floor/tfplugin6"
)

const domainTypeName = "floor_domain"

// domainResource is floor_domain's schema as Terraform is told it, and the object type its values have.
type domainResource struct {
	schema *tfplugin6.Schema
	ty     cty.Type
	// emptyComputed: the computed top-level list, set and map attributes a plan makes empty collections when they
	// are null (FLOOR_DOMAIN_EMPTY_COLLECTIONS=1, the bench's "empty lists instead of nulls" variant), else none.
	emptyComputed map[string]cty.Type
}

// The parts of `terraform providers schema -json` a schema needs (descriptions are dropped).
type jsonSchema struct {
	Version int64     `json:"version"`
	Block   jsonBlock `json:"block"`
}

type jsonBlock struct {
	Attributes map[string]jsonAttribute `json:"attributes"`
	BlockTypes map[string]jsonBlockType `json:"block_types"`
}

// jsonAttribute: encoding/json matches the lower-case keys (required, optional, ...) to these fields. An attribute
// has a type or, for a protocol-6 nested attribute, a nested_type.
type jsonAttribute struct {
	Type                                                json.RawMessage `json:"type"`
	NestedType                                          *jsonNestedType `json:"nested_type"`
	Required, Optional, Computed, Sensitive, Deprecated bool
}

// jsonNestedType: a nested attribute's object (`terraform providers schema -json`'s "nested_type").
type jsonNestedType struct {
	Attributes  map[string]jsonAttribute `json:"attributes"`
	NestingMode string                   `json:"nesting_mode"`
}

type jsonBlockType struct {
	NestingMode string    `json:"nesting_mode"`
	MinItems    int64     `json:"min_items"`
	MaxItems    int64     `json:"max_items"`
	Block       jsonBlock `json:"block"`
}

// loadDomainResource reads the schema file named by FLOOR_DOMAIN_SCHEMA; nil when the variable is unset.
func loadDomainResource() (*domainResource, error) {
	path := os.Getenv("FLOOR_DOMAIN_SCHEMA")
	if path == "" {
		return nil, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s jsonSchema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	block, ty, err := convertBlock(s.Block)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	d := &domainResource{schema: &tfplugin6.Schema{Version: s.Version, Block: block}, ty: ty, emptyComputed: map[string]cty.Type{}}
	if os.Getenv("FLOOR_DOMAIN_EMPTY_COLLECTIONS") == "1" {
		for _, a := range block.Attributes {
			aty := ty.AttributeType(a.Name)
			if a.Computed && (aty.IsListType() || aty.IsSetType() || aty.IsMapType()) {
				d.emptyComputed[a.Name] = aty
			}
		}
	}
	return d, nil
}

// convertAttribute maps one attribute to tfplugin6 and gives its type (a nested attribute's: its object, or a list,
// set or map of it, as Terraform's configschema implies).
func convertAttribute(name string, a jsonAttribute) (*tfplugin6.Schema_Attribute, cty.Type, error) {
	out := &tfplugin6.Schema_Attribute{
		Name: name, Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
		Deprecated: a.Deprecated,
	}
	if a.NestedType == nil {
		ty, err := ctyjson.UnmarshalType(a.Type)
		if err != nil {
			return nil, cty.NilType, fmt.Errorf("attribute %s: %v", name, err)
		}
		out.Type = a.Type
		return out, ty, nil
	}
	object := &tfplugin6.Schema_Object{}
	types := map[string]cty.Type{}
	for _, inner := range sortedKeys(a.NestedType.Attributes) {
		attr, ty, err := convertAttribute(inner, a.NestedType.Attributes[inner])
		if err != nil {
			return nil, cty.NilType, fmt.Errorf("attribute %s: %v", name, err)
		}
		types[inner] = ty
		object.Attributes = append(object.Attributes, attr)
	}
	mode, ok := tfplugin6.Schema_Object_NestingMode_value[strings.ToUpper(a.NestedType.NestingMode)]
	if !ok {
		return nil, cty.NilType, fmt.Errorf("attribute %s: nesting mode %q", name, a.NestedType.NestingMode)
	}
	object.Nesting = tfplugin6.Schema_Object_NestingMode(mode)
	out.NestedType = object
	ety := cty.Object(types)
	switch object.Nesting {
	case tfplugin6.Schema_Object_SINGLE:
		return out, ety, nil
	case tfplugin6.Schema_Object_LIST:
		return out, cty.List(ety), nil
	case tfplugin6.Schema_Object_SET:
		return out, cty.Set(ety), nil
	default:
		return out, cty.Map(ety), nil
	}
}

// convertBlock maps one block to tfplugin6 and builds its implied object type (attributes, then one attribute per
// nested block type: an object for single and group, else a list, set or map of objects), as Terraform does.
func convertBlock(b jsonBlock) (*tfplugin6.Schema_Block, cty.Type, error) {
	out := &tfplugin6.Schema_Block{}
	types := map[string]cty.Type{}
	for _, name := range sortedKeys(b.Attributes) {
		attr, ty, err := convertAttribute(name, b.Attributes[name])
		if err != nil {
			return nil, cty.NilType, err
		}
		types[name] = ty
		out.Attributes = append(out.Attributes, attr)
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		bt := b.BlockTypes[name]
		nested, ety, err := convertBlock(bt.Block)
		if err != nil {
			return nil, cty.NilType, fmt.Errorf("block %s: %v", name, err)
		}
		mode, ok := tfplugin6.Schema_NestedBlock_NestingMode_value[strings.ToUpper(bt.NestingMode)]
		if !ok {
			return nil, cty.NilType, fmt.Errorf("block %s: nesting mode %q", name, bt.NestingMode)
		}
		switch nesting := tfplugin6.Schema_NestedBlock_NestingMode(mode); {
		case nesting == tfplugin6.Schema_NestedBlock_SINGLE || nesting == tfplugin6.Schema_NestedBlock_GROUP:
			types[name] = ety
		case ety.HasDynamicTypes() && nesting != tfplugin6.Schema_NestedBlock_SET:
			types[name] = cty.DynamicPseudoType // a list or map of blocks with `any` in them: a tuple or object
		case nesting == tfplugin6.Schema_NestedBlock_LIST:
			types[name] = cty.List(ety)
		case nesting == tfplugin6.Schema_NestedBlock_SET:
			types[name] = cty.Set(ety)
		default:
			types[name] = cty.Map(ety)
		}
		out.BlockTypes = append(out.BlockTypes, &tfplugin6.Schema_NestedBlock{
			TypeName: name, Block: nested, Nesting: tfplugin6.Schema_NestedBlock_NestingMode(mode),
			MinItems: bt.MinItems, MaxItems: bt.MaxItems,
		})
	}
	return out, cty.Object(types), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// decode reads a msgpack value of the resource's type; no bytes at all is a null object.
func (d *domainResource) decode(v *tfplugin6.DynamicValue) (cty.Value, error) {
	if len(v.GetMsgpack()) == 0 {
		return cty.NullVal(d.ty), nil
	}
	return msgpack.Unmarshal(v.GetMsgpack(), d.ty)
}

// withID is `v` with its `id` attribute replaced (v is a known, non-null object).
func withID(v cty.Value, id cty.Value) cty.Value {
	attrs := v.AsValueMap()
	attrs["id"] = id
	return cty.ObjectVal(attrs)
}

// plan: the proposed state, with `id` unknown on create and kept from the prior state otherwise.
func (d *domainResource) plan(r *tfplugin6.PlanResourceChange_Request) (*tfplugin6.DynamicValue, error) {
	proposed, err := d.decode(r.GetProposedNewState())
	if err != nil {
		return nil, err
	}
	prior, err := d.decode(r.GetPriorState())
	if err != nil {
		return nil, err
	}
	if !proposed.IsNull() {
		id := cty.UnknownVal(cty.String)
		if !prior.IsNull() {
			id = prior.GetAttr("id")
		}
		proposed = withID(proposed, id)
		if len(d.emptyComputed) > 0 {
			attrs := proposed.AsValueMap()
			for name, aty := range d.emptyComputed {
				if attrs[name].IsNull() {
					switch {
					case aty.IsListType():
						attrs[name] = cty.ListValEmpty(aty.ElementType())
					case aty.IsSetType():
						attrs[name] = cty.SetValEmpty(aty.ElementType())
					default:
						attrs[name] = cty.MapValEmpty(aty.ElementType())
					}
				}
			}
			proposed = cty.ObjectVal(attrs)
		}
	}
	b, err := msgpack.Marshal(proposed, d.ty)
	return &tfplugin6.DynamicValue{Msgpack: b}, err
}

// apply: the planned state with an unknown `id` set to `name` (a fixed hex when name is not a known string); null
// on destroy.
func (d *domainResource) apply(r *tfplugin6.ApplyResourceChange_Request) (*tfplugin6.DynamicValue, error) {
	planned, err := d.decode(r.GetPlannedState())
	if err != nil {
		return nil, err
	}
	if !planned.IsNull() && !planned.GetAttr("id").IsKnown() {
		id := cty.StringVal("f100d0000000000f")
		if name := planned.GetAttr("name"); name.IsKnown() && !name.IsNull() {
			id = name
		}
		planned = withID(planned, id)
	}
	b, err := msgpack.Marshal(planned, d.ty)
	return &tfplugin6.DynamicValue{Msgpack: b}, err
}
