"""A workload's command line is read whole: an API server's address flags come after a dozen others."""

from repomodeler.extract.readers.kubernetes import read_kubernetes

MANIFEST = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: hub-apiserver
spec:
  selector:
    matchLabels: {app: hub-apiserver}
  template:
    metadata:
      labels: {app: hub-apiserver}
    spec:
      containers:
        - name: hub-apiserver
          image: registry.k8s.io/kube-apiserver:v1.31.0
          command:
            - kube-apiserver
            - --allow-privileged=true
            - --authorization-mode=Node,RBAC
            - --enable-bootstrap-token-auth=true
            - --etcd-cafile=/etc/hub/pki/etcd-client/ca.crt
            - --etcd-certfile=/etc/hub/pki/etcd-client/tls.crt
            - --etcd-keyfile=/etc/hub/pki/etcd-client/tls.key
            - --etcd-servers=https://etcd-client.hub-system.svc.cluster.local:2379
            - --bind-address=0.0.0.0
"""


def test_a_long_command_keeps_its_later_flags() -> None:
    [workload] = [f for f in read_kubernetes("hub", "deploy/apiserver.yaml", MANIFEST) if f.kind == "k8s.workload"]
    assert "--etcd-servers=https://etcd-client.hub-system.svc.cluster.local:2379" in (workload.get("command") or "")


PATCH = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: controller-manager
spec:
  template:
    spec:
      containers:
        - name: kube-rbac-proxy
          image: gcr.io/kubebuilder/kube-rbac-proxy:v0.5.0
"""


def test_a_deployment_patch_file_is_no_workload() -> None:
    # apps/v1 requires a selector: without one, in a patch file, it is a kustomize patch of another file's Deployment
    assert [f for f in read_kubernetes("op", "config/default/manager_auth_proxy_patch.yaml", PATCH)
            if f.kind == "k8s.workload"] == []
    assert [f.get("name") for f in read_kubernetes("op", "config/manager/manager.yaml", PATCH)
            if f.kind == "k8s.workload"] == ["controller-manager"]
