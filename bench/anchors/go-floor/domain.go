package main

// floor_domain: a second resource type with exactly virtseed_domain's schema that does nothing but echo, so the
// bench can time what Terraform itself pays for that schema (110 attributes where floor_data has 2) with a Go
// plugin. The schema is read at start from the JSON file named by FLOOR_DOMAIN_SCHEMA: one resource's entry of
// `terraform providers schema -json` ({"version":..,"block":{"attributes":{..},"block_types":{..}}}). Without the
// variable the type is not offered. Values go through go-cty (Debian's golang-github-zclconf-go-cty-dev), which
// reads any msgpack extension as an unknown value, so refined unknowns need no code here.

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

// jsonAttribute: encoding/json matches the lower-case keys (required, optional, ...) to these fields.
type jsonAttribute struct {
	Type                                                json.RawMessage `json:"type"`
	Required, Optional, Computed, Sensitive, Deprecated bool
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
	return &domainResource{schema: &tfplugin6.Schema{Version: s.Version, Block: block}, ty: ty}, nil
}

// convertBlock maps one block to tfplugin6 and builds its implied object type (attributes, then one attribute per
// nested block type: an object for single and group, else a list, set or map of objects), as Terraform does.
func convertBlock(b jsonBlock) (*tfplugin6.Schema_Block, cty.Type, error) {
	out := &tfplugin6.Schema_Block{}
	types := map[string]cty.Type{}
	for _, name := range sortedKeys(b.Attributes) {
		a := b.Attributes[name]
		ty, err := ctyjson.UnmarshalType(a.Type)
		if err != nil {
			return nil, cty.NilType, fmt.Errorf("attribute %s: %v", name, err)
		}
		types[name] = ty
		out.Attributes = append(out.Attributes, &tfplugin6.Schema_Attribute{
			Name: name, Type: a.Type, Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			Sensitive: a.Sensitive, Deprecated: a.Deprecated,
		})
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
