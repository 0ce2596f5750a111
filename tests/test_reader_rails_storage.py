"""Rails Active Storage: the cloud services config/storage.yml defines, and the one production.rb assigns."""

from repomodeler.extract.readers.rails_storage import read_rails_environment, read_rails_storage

STORAGE = """test:
  service: Disk
  root: <%= Rails.root.join("tmp/storage") %>

amazon:
  service: S3
  bucket: <%= ENV["AWS_BUCKET"] %>

# google:
#   service: GCS
"""

PRODUCTION = """Rails.application.configure do
  # config.active_storage.service = :google
  if ENV["BUCKET_KEY"].present?
    config.active_storage.service = :amazon
  else
    config.active_storage.service = :local
  end
  config.active_storage.service = ENV.fetch("ACTIVE_STORAGE_SERVICE", "amazon").to_sym
end
"""


def test_cloud_services_only_at_their_lines() -> None:
    facts = read_rails_storage("app", "config/storage.yml", STORAGE)
    assert [(f.kind, f.get("name"), f.get("service"), f.line) for f in facts] == [("storage.service", "amazon", "S3", 6)]


def test_each_assignment_of_the_production_environment_and_a_settings_default() -> None:
    facts = read_rails_environment("app", "config/environments/production.rb", PRODUCTION)
    assert [(f.get("name"), f.line) for f in facts] == [("amazon", 4), ("local", 6), ("amazon", 8)]
