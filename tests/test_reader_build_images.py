"""Images a build tool makes of a module without a Dockerfile (``manifest.image``): the .NET SDK's
container publishing, Jib and Spring Boot's build-image in a pom or a Gradle script, at their lines,
with the build file's own placeholders filled in and an image whose name still holds one left out."""

from repomodeler.extract.readers._text import image_named
from repomodeler.extract.readers.dotnet_project import read_csproj
from repomodeler.extract.readers.gradle import read_gradle
from repomodeler.extract.readers.maven import read_pom


def images(facts) -> list[tuple[int, str, str]]:
    return [(f.line, f.get("tool"), f.get("image")) for f in facts if f.kind == "manifest.image"]


CSPROJ = """<Project Sdk="Microsoft.NET.Sdk.Web">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
    <ContainerImageName>podcastapi</ContainerImageName>
    <ContainerRepository Condition="'$(Configuration)' == 'Release'">acme/podcast-api</ContainerRepository>
    <ContainerRepository>$(AssemblyName.ToLower())</ContainerRepository>
  </PropertyGroup>
</Project>
"""


def test_csproj_container_image_name_and_repository_at_their_lines() -> None:
    assert images(read_csproj("r", "src/Podcast.API/Podcast.API.csproj", CSPROJ)) == [
        (4, "dotnet-sdk", "podcastapi"), (5, "dotnet-sdk", "acme/podcast-api")]  # an MSBuild property: left out


def test_csproj_without_container_settings_names_no_image() -> None:
    assert images(read_csproj("r", "A.csproj", '<Project Sdk="Microsoft.NET.Sdk"></Project>')) == []


POM = """<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <parent><groupId>org.acme</groupId><artifactId>shop</artifactId><version>1.2</version></parent>
  <artifactId>orders</artifactId>
  <name>Orders Service</name>
  <properties>
    <docker.prefix>acme</docker.prefix>
    <image.stem>shop-${project.artifactId}</image.stem>
  </properties>
  <build>
    <plugins>
      <plugin>
        <groupId>com.google.cloud.tools</groupId>
        <artifactId>jib-maven-plugin</artifactId>
        <configuration>
          <from><image>eclipse-temurin:17</image></from>
          <to><image>${docker.prefix}/${image.stem}:${project.version}</image></to>
        </configuration>
      </plugin>
      <plugin>
        <groupId>org.springframework.boot</groupId>
        <artifactId>spring-boot-maven-plugin</artifactId>
        <configuration><image><name>${project.name}</name></image></configuration>
        <executions>
          <execution>
            <configuration><image><name>registry.io/acme/${artifactId}-boot</name></image></configuration>
          </execution>
        </executions>
      </plugin>
    </plugins>
  </build>
  <profiles>
    <profile>
      <id>build-image</id>
      <build><plugins><plugin>
        <artifactId>jib-maven-plugin</artifactId>
        <configuration><to><image>acme/${project.artifactId}-native</image></to></configuration>
      </plugin></plugins></build>
    </profile>
    <profile>
      <id>other</id>
      <build><plugins><plugin>
        <artifactId>jib-maven-plugin</artifactId>
        <configuration><to><image>acme/${image.name}</image></to></configuration>
      </plugin></plugins></build>
    </profile>
  </profiles>
</project>
"""


def test_pom_jib_and_spring_boot_images_with_the_poms_placeholders_filled_in() -> None:
    # the base image (<from>) is not built here; `${project.name}` with a blank is no image name; an
    # unknown property leaves the name unknown
    assert images(read_pom("r", "orders/pom.xml", POM)) == [
        (17, "jib", "acme/shop-orders:1.2"),
        (26, "spring-boot", "registry.io/acme/orders-boot"),
        (37, "jib", "acme/orders-native"),
    ]


DOCKER_PLUGINS_POM = """<project>
  <artifactId>gateway</artifactId>
  <properties><docker.image.prefix>acme</docker.image.prefix></properties>
  <build>
    <plugins>
      <plugin>
        <groupId>com.spotify</groupId>
        <artifactId>docker-maven-plugin</artifactId>
        <configuration>
          <imageName>${docker.image.prefix}/${project.artifactId}</imageName>
          <dockerDirectory>src/main/docker</dockerDirectory>
        </configuration>
      </plugin>
      <plugin>
        <groupId>com.spotify</groupId>
        <artifactId>dockerfile-maven-plugin</artifactId>
        <configuration>
          <repository>acme/gateway-native</repository>
        </configuration>
      </plugin>
      <plugin>
        <groupId>io.fabric8</groupId>
        <artifactId>docker-maven-plugin</artifactId>
        <configuration>
          <images>
            <image>
              <name>${docker.account}/gateway-edge</name>
              <build><dockerFile>${project.basedir}/docker/edge/Dockerfile</dockerFile></build>
            </image>
            <image>
              <name>acme/gateway-built</name>
              <build><contextDir>${project.build.directory}/docker-ready</contextDir></build>
            </image>
          </images>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
"""


def test_pom_docker_plugins_name_their_images_and_the_recipe_folder_they_build() -> None:
    # Spotify's plugins and fabric8's (an image per <image>, a placeholder left in the owner part only); the
    # recipe folder relative to the module (the dockerfile plugin's default: the module's own), none when it is
    # the build's own output
    facts = [f for f in read_pom("r", "svc/gateway/pom.xml", DOCKER_PLUGINS_POM) if f.kind == "manifest.image"]
    assert [(f.line, f.get("tool"), f.get("image"), f.get("recipe")) for f in facts] == [
        (10, "docker-maven", "acme/gateway", "svc/gateway/src/main/docker"),
        (18, "docker-maven", "acme/gateway-native", "svc/gateway"),
        (27, "docker-maven", "${docker.account}/gateway-edge", "svc/gateway/docker/edge"),
        (31, "docker-maven", "acme/gateway-built", None),
    ]


def test_pom_jib_without_a_target_image_names_none() -> None:
    pom = ("<project><artifactId>ledgerwriter</artifactId><build><plugins><plugin>"
           "<artifactId>jib-maven-plugin</artifactId><configuration><from><image>eclipse-temurin:17</image></from>"
           "</configuration></plugin></plugins></build></project>")
    assert images(read_pom("r", "pom.xml", pom)) == []


GRADLE = """plugins { id 'com.google.cloud.tools.jib' version '3.4.0' }
// jib { to { image = "commented-out" } }
jib {
    from { image = "eclipse-temurin:17" }
    to {
        image = "acme/orders:${version}"
        tags = ['latest']
    }
}
def banner = "${ project.name } {"  /* { a brace in a comment */
jib.to.image = 'acme/billing'
tasks.named("bootBuildImage") {
    imageName = "acme/shipping"
}
bootBuildImage { imageName.set("docker.io/acme/${project.name}-boot:1.0") }
jib { to.image = "acme/${rootProject.name}" }
"""


def test_gradle_jib_and_boot_build_image_names_in_blocks_and_dotted() -> None:
    assert images(read_gradle("r", "services/payments/build.gradle", GRADLE)) == [
        (6, "jib", "acme/orders:${version}"),  # the tag's placeholder does not matter
        (11, "jib", "acme/billing"),
        (13, "spring-boot", "acme/shipping"),
        (15, "spring-boot", "docker.io/acme/payments-boot:1.0"),  # a subproject's name is its folder's
    ]


def test_gradle_kotlin_typed_task_block() -> None:
    kts = ('tasks.named<org.springframework.boot.gradle.tasks.bundling.BootBuildImage>("bootBuildImage") {\n'
           '    imageName.set("acme/kotlin-app")\n'
           '}\n'
           'jib {\n    to {\n        image = "acme/kotlin-jib"\n    }\n}\n')
    assert images(read_gradle("r", "app/build.gradle.kts", kts)) == [
        (2, "spring-boot", "acme/kotlin-app"), (6, "jib", "acme/kotlin-jib")]


def test_image_named_wants_a_name_free_of_placeholders() -> None:
    assert image_named("acme/orders:1.0") and image_named("${registry}/orders") and image_named("a/b:${tag}")
    assert not image_named("acme/${image.name}") and not image_named("$(Name)") and not image_named("Orders Service")
    assert not image_named("")


def test_pom_properties_naming_each_other_over_and_over_name_no_image() -> None:
    bomb = "${a}" * 50
    pom = (f"<project><artifactId>x</artifactId><properties><a>{bomb}</a></properties><build><plugins><plugin>"
           "<artifactId>jib-maven-plugin</artifactId><configuration><to><image>acme/${a}</image></to>"
           "</configuration></plugin></plugins></build></project>")
    assert images(read_pom("r", "pom.xml", pom)) == []


def test_dependencies_of_profiles_the_default_build_activates() -> None:
    """A server packages its UI module unless told to skip it (`<activation><property><name>!skipUi`), or in a
    profile active by default: those dependencies are the default build's; a profile switched on by hand is not."""
    text = """<project>
  <artifactId>tracer-server</artifactId>
  <dependencies><dependency><artifactId>spring-boot-starter-web</artifactId></dependency></dependencies>
  <profiles>
    <profile><id>include-ui</id>
      <activation><property><name>!skipUi</name></property></activation>
      <dependencies><dependency><artifactId>tracer-ui</artifactId></dependency></dependencies>
    </profile>
    <profile><id>metrics</id>
      <activation><activeByDefault>true</activeByDefault></activation>
      <dependencies><dependency><artifactId>micrometer-registry-prometheus</artifactId></dependency></dependencies>
    </profile>
    <profile><id>kafka</id>
      <dependencies><dependency><artifactId>spring-kafka</artifactId></dependency></dependencies>
    </profile>
  </profiles>
</project>
"""
    from repomodeler.extract.readers.maven import read_pom
    deps = {f.get("name") for f in read_pom("tracer", "tracer-server/pom.xml", text) if f.kind == "manifest.dependency"}
    assert deps == {"spring-boot-starter-web", "tracer-ui", "micrometer-registry-prometheus"}
