#!/usr/bin/env bash
# Download the pinned PyPI packages of real_code_survival.py's package sets into DIR/pkgsN/<name>/,
# each folder importable as it is (pass them as --heldout-path $(ls -d DIR/pkgsN/*/)). Never run by the
# tests; the packages stay outside the repository. Usage: bash benchmarks/fetch_real_code.sh DIR [SET ...]
# where SET is heldout, heldout2 ... heldout14 or dev (default: every set).
set -euo pipefail
out=${1:?usage: fetch_real_code.sh DIR [SET ...]}; shift
declare -A PINS=(
  [heldout]="pygorithm==1.0.4 algorithms-lib==2.0.0"
  [heldout2]="boltons==26.2.0 dsaedge==0.5.0"
  [heldout3]="inflection==0.5.1 roman==5.2 jellyfish==0.8.2 phonetics==1.0.5 humanize==4.17.0 webcolors==25.10.0 fuzzywuzzy==0.18.0 py_algorithms==0.26.1 toolz==1.2.0 python-string-utils==1.0.0 python-stdnum==2.2"
  [heldout4]="funcy==2.1 isbnlib==3.10.14 more-itertools==11.2.1 num2words==0.5.14 python-slugify==9.2.0 validators==0.36.0"
  [heldout5]="jsonpointer==3.12 nameparser==2.6.0 pyhumps==3.8.0 semver==3.2.0 sortedcontainers==2.4.0 textdistance==4.6.3 titlecase==2.4.1 wcwidth==0.9.5"
  [heldout6]="colour==0.1.5 docopt==0.6.2 hashids==1.3.1 stringcase==1.2.0 toposort==1.10 base58==2.1.1 isodate==0.7.2 natsort==8.4.0 parse==1.22.4 word2number==1.1"
  [heldout7]="flatten-dict==0.5.0 humanfriendly==10.0 labmath==2.2.0 nested-lookup==0.2.25 python-utils==4.1.4 pytimeparse==1.1.10"
  [heldout8]="aniso8601==10.0.1 dictdiffer==0.10.0 hsluv==5.0.5 jaconv==0.5.0 number-parser==0.3.2 semantic-version==2.10.0 timeago==1.0.16"
  [heldout9]="markdown2==2.5.6 persiantools==6.2.0 pyluach==2.3.0 quantiphy==2.23 sqlparse==0.6.1 uncertainties==3.2.3 voluptuous==0.16.0"
  [heldout10]="checkdigit==0.5.0 colorutils==0.3.0 cyrtranslit==1.2.0 dicttoxml==1.7.16 dpath==2.2.0 primePy==1.3 pylev==1.4.0 simplediff==1.1"
  [heldout11]="haversine==2.9.0 hijridate==2.6.0 netaddr==1.3.0 rfc3986==2.0.0 strict-rfc3339==0.7 utm==0.9.0 zxcvbn==4.5.0"
  [heldout12]="bech32==1.2.0 jdcal==1.4.1 smartypants==2.0.2 python-mimeparse==2.0.0 polyline==2.0.4 base32-crockford==0.3.0 jamo==0.4.1 IPy==1.2"
  [heldout13]="greek-accentuation==1.2.0 iptools==0.7.0 javaproperties==0.8.2 pymorton==1.0.5 si-prefix==1.3.3 whatthepatch==1.0.7 mathparse==0.2.9 srt==3.5.3 pymmh3==0.0.5 lat-lon-parser==1.3.1"
  [heldout14]="convertdate==2.5.1 PyMeeus==0.5.12 iso8601==2.1.0 kanjize==1.6.1 PyArabic==0.6.15 terminaltables==3.1.10 toml==0.10.2 w3lib==2.5.0 fnvhash==0.2.1 mercantile==1.2.1 uritools==7.0.1 pybase62==1.0.0 sexpdata==1.0.2"
  [dev]="algorithms==1.0.1 pydash==8.1.0 pythonds==1.2.1"
)
sets=("$@"); [ ${#sets[@]} -gt 0 ] || sets=(heldout heldout2 heldout3 heldout4 heldout5 heldout6 heldout7 heldout8 heldout9 heldout10 heldout11 heldout12 heldout13 heldout14 dev)
for set in "${sets[@]}"; do
  pins=${PINS[$set]:?unknown set $set}
  folder="$out/pkgs${set#heldout}"; [ "$set" = dev ] && folder="$out/pkgsdev"
  download="$out/downloads/$set"; mkdir -p "$folder" "$download"
  python3 -m pip download --quiet --no-deps $pins -d "$download"
  for file in "$download"/*; do
    name=$(basename "$file"); name=${name%.whl}; name=${name%.tar.gz}; name=${name%.zip}
    [ -d "$folder/$name" ] && continue
    unpacked=$(mktemp -d)
    case "$file" in
      *.whl) unzip -q "$file" -d "$folder/$name"; continue ;;
      *.zip) unzip -q "$file" -d "$unpacked" ;;
      *.tar.gz) tar xzf "$file" -C "$unpacked" ;;
    esac
    root=$(find "$unpacked" -mindepth 1 -maxdepth 1 -type d | head -1)  # an sdist holds one folder
    if [ -d "$root/src" ]; then mv "$root/src" "$folder/$name"; else mv "$root" "$folder/$name"; fi
    rm -rf "$unpacked"
  done
  echo "$set: $(ls "$folder" | wc -l) packages in $folder"
done
