#!/usr/bin/env bash
# Debian packages the tests drive as real counterparts (idempotent; needs root, as on our machines):
#   bubblewrap     runs capabilities as Selu's runner does (uid 1000, read-only root, own /tmp)
#   poppler-utils  independent PDF reader (pdftotext, pdfinfo, pdfimages, pdftoppm) for the pdf tests
#   qpdf           independent PDF structure check for the pdf tests
#   dovecot-imapd  a real IMAP server for the email tests
#   zip, unzip     Info-ZIP, an independent ZIP writer and checker for the file-manager tests
set -euo pipefail
packages=(bubblewrap poppler-utils qpdf dovecot-imapd zip unzip)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "install-test-deps: missing ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "install-test-deps: installing ${missing[*]}" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
