#!/usr/bin/env bash
# Debian packages the tests drive as real counterparts (idempotent; needs root, as on our machines):
#   bubblewrap     runs capabilities as Selu's runner does (uid 1000, read-only root, own /tmp)
#   poppler-utils  independent PDF reader (pdftotext, pdfinfo, pdfimages, pdftoppm) for the pdf tests
#   qpdf           independent PDF structure check for the pdf tests
#   libharfbuzz-bin  hb-shape, an independent HarfBuzz build the pdf tests check shaping against
#   dovecot-imapd  a real IMAP server for the email tests
#   zip, unzip     Info-ZIP, an independent ZIP writer and checker for the file-manager tests
#   libxml2-utils  xmllint, an independent XML checker for the pdf tests (its XMP metadata)
set -euo pipefail
packages=(bubblewrap poppler-utils qpdf libharfbuzz-bin dovecot-imapd zip unzip libxml2-utils)
exec bash "$(dirname "${BASH_SOURCE[0]}")/apt-ensure.sh" install-test-deps "${packages[@]}"
