package main

// The tfplugin6 Provider service: no provider configuration, one resource type `floor_data` (id computed, input
// optional) and, when FLOOR_DOMAIN_SCHEMA names a schema, `floor_domain` (domain.go), state kept only in Terraform.
// RPCs not written here answer UNIMPLEMENTED.

import (
	"context"
	"fmt"

	"terraform-provider-floor/tfplugin6"
)

const typeName = "floor_data"

type provider struct {
	tfplugin6.UnimplementedProviderServer
	domain *domainResource // nil: floor_domain is not offered
}

var capabilities = &tfplugin6.ServerCapabilities{}

func (p *provider) GetMetadata(context.Context, *tfplugin6.GetMetadata_Request) (*tfplugin6.GetMetadata_Response, error) {
	resources := []*tfplugin6.GetMetadata_ResourceMetadata{{TypeName: typeName}}
	if p.domain != nil {
		resources = append(resources, &tfplugin6.GetMetadata_ResourceMetadata{TypeName: domainTypeName})
	}
	return &tfplugin6.GetMetadata_Response{ServerCapabilities: capabilities, Resources: resources}, nil
}

func (p *provider) GetProviderSchema(context.Context, *tfplugin6.GetProviderSchema_Request) (*tfplugin6.GetProviderSchema_Response, error) {
	stringType := []byte(`"string"`)
	schemas := map[string]*tfplugin6.Schema{typeName: {Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{
		{Name: "id", Type: stringType, Computed: true},
		{Name: "input", Type: stringType, Optional: true},
	}}}}
	if p.domain != nil {
		schemas[domainTypeName] = p.domain.schema
	}
	return &tfplugin6.GetProviderSchema_Response{
		Provider:           &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{}},
		ResourceSchemas:    schemas,
		ServerCapabilities: capabilities,
	}, nil
}

func (*provider) ValidateProviderConfig(context.Context, *tfplugin6.ValidateProviderConfig_Request) (*tfplugin6.ValidateProviderConfig_Response, error) {
	return &tfplugin6.ValidateProviderConfig_Response{}, nil
}

func (*provider) ValidateResourceConfig(context.Context, *tfplugin6.ValidateResourceConfig_Request) (*tfplugin6.ValidateResourceConfig_Response, error) {
	return &tfplugin6.ValidateResourceConfig_Response{}, nil
}

func (*provider) ConfigureProvider(context.Context, *tfplugin6.ConfigureProvider_Request) (*tfplugin6.ConfigureProvider_Response, error) {
	return &tfplugin6.ConfigureProvider_Response{}, nil
}

// UpgradeResourceState hands the stored JSON back as it is (schema version 0 only ever wrote this shape).
func (*provider) UpgradeResourceState(_ context.Context, r *tfplugin6.UpgradeResourceState_Request) (*tfplugin6.UpgradeResourceState_Response, error) {
	return &tfplugin6.UpgradeResourceState_Response{UpgradedState: &tfplugin6.DynamicValue{Json: r.GetRawState().GetJson()}}, nil
}

func (*provider) ReadResource(_ context.Context, r *tfplugin6.ReadResource_Request) (*tfplugin6.ReadResource_Response, error) {
	return &tfplugin6.ReadResource_Response{NewState: r.CurrentState, Private: r.Private}, nil
}

// PlanResourceChange: the proposed state, with `id` unknown on create and kept from the prior state otherwise.
func (p *provider) PlanResourceChange(_ context.Context, r *tfplugin6.PlanResourceChange_Request) (*tfplugin6.PlanResourceChange_Response, error) {
	if r.TypeName == domainTypeName && p.domain != nil {
		planned, err := p.domain.plan(r)
		return &tfplugin6.PlanResourceChange_Response{PlannedState: planned, Diagnostics: errorDiagnostics(err)}, nil
	}
	proposed, err := decodeObject(r.GetProposedNewState().GetMsgpack())
	if err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: errorDiagnostics(err)}, nil
	}
	prior, err := decodeObject(r.GetPriorState().GetMsgpack())
	if err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: errorDiagnostics(err)}, nil
	}
	if proposed != nil {
		if prior == nil {
			proposed.id = str{unknown: true}
		} else {
			proposed.id = prior.id
		}
	}
	return &tfplugin6.PlanResourceChange_Response{PlannedState: &tfplugin6.DynamicValue{Msgpack: encodeObject(proposed)}}, nil
}

// ApplyResourceChange: the planned state with `id` set to the input (a fixed hex without one); null on destroy.
func (p *provider) ApplyResourceChange(_ context.Context, r *tfplugin6.ApplyResourceChange_Request) (*tfplugin6.ApplyResourceChange_Response, error) {
	if r.TypeName == domainTypeName && p.domain != nil {
		state, err := p.domain.apply(r)
		return &tfplugin6.ApplyResourceChange_Response{NewState: state, Diagnostics: errorDiagnostics(err)}, nil
	}
	planned, err := decodeObject(r.GetPlannedState().GetMsgpack())
	if err != nil {
		return &tfplugin6.ApplyResourceChange_Response{Diagnostics: errorDiagnostics(err)}, nil
	}
	if planned != nil && planned.id.unknown {
		planned.id = str{value: "f100d0000000000f"}
		if !planned.input.null && !planned.input.unknown {
			planned.id.value = planned.input.value
		}
	}
	return &tfplugin6.ApplyResourceChange_Response{NewState: &tfplugin6.DynamicValue{Msgpack: encodeObject(planned)}}, nil
}

func (*provider) StopProvider(context.Context, *tfplugin6.StopProvider_Request) (*tfplugin6.StopProvider_Response, error) {
	return &tfplugin6.StopProvider_Response{}, nil
}

// errorDiagnostics reports a value the provider cannot read as one error diagnostic; none for a nil error.
func errorDiagnostics(err error) []*tfplugin6.Diagnostic {
	if err == nil {
		return nil
	}
	return []*tfplugin6.Diagnostic{{Severity: tfplugin6.Diagnostic_ERROR, Summary: fmt.Sprintf("%s: %v", typeName, err)}}
}
