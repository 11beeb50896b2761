#!/bin/sh
# make.sh makes narrower.tsv, the table wordnet embeds, from WordNet 3.0
# as Debian packages it (wordnet-base; apt-get download needs no root),
# with the licence notice the WordNet licence asks every copy to carry.
# Run it from anywhere: sh wordnet/make.sh (or go generate ./wordnet).
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download wordnet-base=1:3.0-37 >/dev/null)
dpkg-deb -x "$tmp"/wordnet-base_*.deb "$tmp/x"
go run ./gen -dict "$tmp/x/usr/share/wordnet" -out "$tmp/table.tsv"
{
	echo "# Narrower nouns from WordNet 3.0 (Princeton University), made by make.sh."
	echo "# WordNet's licence, which every copy must carry:"
	sed 's/^/# /' LICENSE-WordNet
	cat "$tmp/table.tsv"
} >narrower.tsv
