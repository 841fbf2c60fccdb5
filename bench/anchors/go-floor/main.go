// terraform-provider-floor: the smallest plugin provider we can write with HashiCorp's go-plugin, used by
// `npm run bench` as the floor any plugin provider pays on this machine (process start, handshake, gRPC with
// AutoMTLS, one resource type shaped like terraform_data) and, with FLOOR_DOMAIN_SCHEMA set, floor_domain: an echo
// resource with virtseed_domain's schema (domain.go). Built by ../build-go-floor.sh; not shipped.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"terraform-provider-floor/tfplugin6"
)

func main() {
	domain, err := loadDomainResource()
	if err != nil { // before the handshake: Terraform shows this stderr line with its own error
		fmt.Fprintf(os.Stderr, "terraform-provider-floor: FLOOR_DOMAIN_SCHEMA: %v\n", err)
		os.Exit(1)
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		VersionedPlugins: map[int]plugin.PluginSet{6: {"provider": providerPlugin{provider: &provider{domain: domain}}}},
		GRPCServer:       plugin.DefaultGRPCServer,
	})
}

// providerPlugin registers the tfplugin6 Provider service on go-plugin's gRPC server (no net/rpc side).
type providerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	provider *provider
}

func (pp providerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	tfplugin6.RegisterProviderServer(s, pp.provider)
	return nil
}

func (providerPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, errors.New("terraform-provider-floor is a plugin server only")
}
