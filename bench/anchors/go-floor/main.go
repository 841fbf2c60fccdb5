// terraform-provider-floor: the smallest plugin provider we can write with HashiCorp's go-plugin, used by
// `npm run bench` as the floor any plugin provider pays on this machine (process start, handshake, gRPC with
// AutoMTLS, one resource type shaped like terraform_data). Built by ../build-go-floor.sh; not shipped.
package main

import (
	"context"
	"errors"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"terraform-provider-floor/tfplugin6"
)

func main() {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		VersionedPlugins: map[int]plugin.PluginSet{6: {"provider": providerPlugin{}}},
		GRPCServer:       plugin.DefaultGRPCServer,
	})
}

// providerPlugin registers the tfplugin6 Provider service on go-plugin's gRPC server (no net/rpc side).
type providerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
}

func (providerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	tfplugin6.RegisterProviderServer(s, &provider{})
	return nil
}

func (providerPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, errors.New("terraform-provider-floor is a plugin server only")
}
