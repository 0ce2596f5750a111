"""Resolve facts from all repositories into one system: components, ports, connections.

The rules, in order:

1. Deployment descriptors (compose services, Kubernetes workloads) declare components.
2. Build units (a folder with its own manifest and an entry point) become services where no
   descriptor covers them; a repository with code but neither becomes one service.
3. Each source file belongs to the component whose source folder is the deepest prefix of its path.
4. Values that name another component's host (env/config values, URL literals in code, compose
   depends_on/links) connect the component that holds them to that component.  A data-store URL
   whose host is unknown introduces that data store; an HTTP URL to a foreign host used by a client
   call introduces an external system; anything else is recorded as unresolved, never guessed.

Every component and connection is created from a fact and keeps that fact's evidence.
"""

from __future__ import annotations

from repomodeler.graph.aspire import AspireRules
from repomodeler.graph.bundled_apps import BundledAppRules
from repomodeler.graph.base import SystemModel
from repomodeler.graph.cloudformation import CloudFormationRules
from repomodeler.graph.command_line import CommandLineRules
from repomodeler.graph.components import ComponentRules
from repomodeler.graph.connections import ConnectionRules
from repomodeler.graph.function_bindings import FunctionBindingRules
from repomodeler.graph.iac_deploy import IacDeployRules
from repomodeler.graph.platform import PlatformRules
from repomodeler.graph.plugins import PluginRules
from repomodeler.graph.keyed_vendors import VendorChoiceRules
from repomodeler.graph.vendors import VendorRules
from repomodeler.graph.processes import ProcessRules
from repomodeler.graph.hosts import HostRules
from repomodeler.graph.listen_ports import ListenPortRules
from repomodeler.graph.local_services import LocalServiceRules
from repomodeler.graph.mail_senders import MailSenderRules
from repomodeler.graph.embedded_engines import EmbeddedEngineRules
from repomodeler.graph.addressed_processes import AddressedProcessRules
from repomodeler.graph.named_addresses import NamedAddressRules
from repomodeler.graph.registries import RegistryRules
from repomodeler.graph.registry_keys import RegistryKeyRules
from repomodeler.graph.releases import ReleaseRules
from repomodeler.graph.route_calls import RouteCallRules
from repomodeler.graph.rpc_interfaces import RpcInterfaceRules
from repomodeler.graph.same_code import SameCodeRules
from repomodeler.graph.network_policies import NetworkPolicyRules
from repomodeler.graph.secret_settings import SecretSettingRules
from repomodeler.graph.store_alternatives import StoreAlternativeRules
from repomodeler.graph.certificates import CertificateRules
from repomodeler.graph.ice_servers import IceServerRules
from repomodeler.graph.error_reporting import ErrorReportingRules
from repomodeler.graph.mail_peers import MailPeerRules
from repomodeler.graph.product_peers import ProductPeerRules
from repomodeler.graph.moleculer import MoleculerRules
from repomodeler.graph.knative import KnativeRules
from repomodeler.graph.keyed_vendors import AddressEchoRules
from repomodeler.graph.literal_hosts import LiteralHostRules
from repomodeler.graph.sdk_settings import UnconfiguredSdkRules
from repomodeler.graph.pod_stores import PodStoreRules
from repomodeler.graph.job_workers import JobWorkerRules
from repomodeler.graph.platform_addons import PlatformAddonRules
from repomodeler.graph.undeployed_programs import UndeployedProgramRules
from repomodeler.graph.cluster_api import ClusterApiRules
from repomodeler.graph.library_calls import LibraryCallRules
from repomodeler.graph.versioned_recipes import VersionedRecipeRules
from repomodeler.graph.undeployed import UndeployedRules
from repomodeler.graph.setting_reads import SettingReadRules
from repomodeler.graph.subsystems import SubsystemRules
from repomodeler.graph.service_names import ServiceNameRules
from repomodeler.graph.command_addresses import CommandAddressRules
from repomodeler.graph.hosting import HostingRules
from repomodeler.graph.launched import LaunchRules, NamedProcessRules, OneContainerRules, SpawnedBinaryRules, SupervisedRules
from repomodeler.graph.webapps import WebAppRules
from repomodeler.records import ExtractResult
from repomodeler.rules import RULES
from repomodeler.writes import running

__all__ = ["Resolver", "SystemModel", "resolve_system"]


class Resolver(ComponentRules, AspireRules, CloudFormationRules, ConnectionRules, PlatformRules, ProcessRules, SubsystemRules,
               LaunchRules, SpawnedBinaryRules, SupervisedRules, WebAppRules, PluginRules, VendorRules, NamedProcessRules,
               RpcInterfaceRules, RegistryRules, RegistryKeyRules, NamedAddressRules, HostRules, ListenPortRules, RouteCallRules,
               CommandLineRules, LocalServiceRules, IacDeployRules, SettingReadRules, ServiceNameRules,
               CommandAddressRules, HostingRules, FunctionBindingRules, SameCodeRules, UndeployedRules, ReleaseRules, OneContainerRules,
               VersionedRecipeRules, VendorChoiceRules, StoreAlternativeRules, CertificateRules, IceServerRules, ErrorReportingRules, MailPeerRules,
               BundledAppRules,
               AddressEchoRules, LiteralHostRules,
               NetworkPolicyRules, SecretSettingRules, UnconfiguredSdkRules, PodStoreRules, UndeployedProgramRules, ClusterApiRules,
               LibraryCallRules, MailSenderRules, EmbeddedEngineRules, AddressedProcessRules, JobWorkerRules,
               PlatformAddonRules,
               ProductPeerRules, MoleculerRules, KnativeRules):
    """Applies the rules of :data:`repomodeler.rules.RULES` in their order (a rule runs after the rules it
    declares it uses, so it sees what they found), then names on every element the rules behind it."""

    def __init__(self, name: str, results: list[ExtractResult], disabled: frozenset[str] = frozenset()) -> None:
        super().__init__(name, results)
        self.disabled = disabled  # rule ids switched off (a rule's fixture test shows what it adds)

    def resolve(self) -> SystemModel:
        for rule in RULES:
            if rule.id in self.disabled:
                continue
            self.by_kind.current = self.current_rule = rule
            with running(rule, self.strict_writes):  # the builder's records refuse what it did not declare
                getattr(self, rule.unit)()
        self.by_kind.current = self.current_rule = None
        self.provenance()
        self.model.unresolved = sorted(set(self.model.unresolved), key=lambda u: (u.component, u.value, u.evidence))
        return self.model


def resolve_system(name: str, results: list[ExtractResult], disabled: frozenset[str] = frozenset()) -> SystemModel:
    return Resolver(name, results, disabled).resolve()
