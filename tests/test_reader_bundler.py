"""Bundler Gemfiles: a Ruby application's gems, development groups apart."""

from repomodeler.extract.readers.bundler import read_gemfile

GEMFILE = '''source "https://rubygems.org"
ruby "3.3.0"

gem "rails", "~> 8.0"
gem 'pg', '~> 1.5'
gem "sidekiq", require: false
gem "rspec-rails", group: :test
gem "bootsnap", groups: [:default, :production]

if ENV["WITH_MYSQL"]
  gem "mysql2"
end

group :development, :test do
  gem "debug", platforms: %i[mri windows]
  platforms :ruby do
    gem "byebug"
  end
  gem "faker"
end

group :production do
  gem "lograge"
end
# gem "redis"
'''


def read():
    return {(f.kind, f.get("name")): f.evidence.line for f in read_gemfile("shop", "Gemfile", GEMFILE)}


def test_runtime_gems_are_dependencies_with_their_lines():
    facts = read()
    assert facts[("manifest.dependency", "pg")] == 5
    assert ("manifest.dependency", "rails") in facts
    assert ("manifest.dependency", "sidekiq") in facts  # require: false is still installed
    assert ("manifest.dependency", "bootsnap") in facts
    assert ("manifest.dependency", "mysql2") in facts  # an `if` block's end closes it, not a group
    assert ("manifest.dependency", "lograge") in facts


def test_development_and_test_groups_are_development_dependencies():
    facts = read()
    for gem in ("rspec-rails", "debug", "byebug", "faker"):
        assert ("manifest.dev_dependency", gem) in facts, gem
        assert ("manifest.dependency", gem) not in facts, gem


def test_commented_gems_are_not_read():
    assert not any(name == "redis" for _kind, name in read())
