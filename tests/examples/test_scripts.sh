#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The example scripts (examples/*.sh) on the CPU backend, without cameras.
#
#   test_scripts.sh EXAMPLES-DIR CV-JSON DATA-DIR PART
#
# PART:
#   check     --check of every camera pipeline (gst-launch-1.0 parses and
#             links it, v4l2src -> videotestsrc), --print contents, the
#             calibration files (ours and KITTI's), the error messages
#   simulate  the camera scripts on the synthetic camera (--simulate),
#             with the per-frame messages: every element posts one per frame
#   record    record-annotated.sh and record-disparity.sh: MP4 files with
#             the expected size and number of frames
#   kitti     kitti-sequence.sh on PNG sequences made here from the
#             synthetic camera, with a KITTI calib_cam_to_cam.txt, read back
#             through cv-json
set -uo pipefail
examples=$1
cv_json=$2
data=$3
part=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

for e in cudasgm cudastixels cudahough cudardp cudaroaddetect stereotestsrc; do
  if ! gst-inspect-1.0 --exists --atleast-version=0.0.0 "$e"; then
    echo "SKIP: the element $e is not in this build"
    exit 77
  fi
done

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_ok DESCRIPTION COMMAND...: the command succeeds; its output is in $out
expect_ok() {
  local what=$1 status=0; shift
  out=$("$@" 2>&1) || status=$?
  if [ $status != 0 ]; then
    fail "$what: exit status $status: $*"
    echo "$out" | tail -20 >&2
    return 1
  fi
  return 0
}

# expect_error DESCRIPTION MESSAGE COMMAND...: fails with MESSAGE on stderr
expect_error() {
  local what=$1 msg=$2; shift 2
  if out=$("$@" 2>&1); then
    fail "$what: succeeded, expected an error: $*"
    return
  fi
  [[ "$out" == *"$msg"* ]] || fail "$what: expected '$msg' in: $out"
}

# contains DESCRIPTION TEXT NEEDLE...
contains() {
  local what=$1 text=$2 n; shift 2
  for n in "$@"; do
    [[ "$text" == *"$n"* ]] || fail "$what: '$n' missing in: $text"
  done
}

# mp4_frames FILE WIDTH HEIGHT: the number of H.264 frames of that size,
# in a profile players and hardware decoders take (4:2:0, not High 4:4:4)
mp4_frames() {
  gst-launch-1.0 -v filesrc location="$1" ! qtdemux ! h264parse ! \
    "video/x-h264,width=$2,height=$3,profile={constrained-baseline,baseline,main,high}" \
    ! fakesink silent=false 2>&1 | grep -c 'fakesink0: last-message = chain'
}

cones=$data/middlebury/cones
tsukuba=$data/middlebury/tsukuba
# Without the shared data (e.g. a clone without ../shared), use synthetic
# pairs of the same sizes (450x375 and 384x288): the scripts' handling of
# files, sizes and calibrations is what these checks are about.
if [ ! -r "$cones/left.png" ] || [ ! -r "$tsukuba/right.png" ]; then
  echo "no shared data at $data: synthetic PNG pairs instead"
  synth_pair() {  # DIR WIDTH HEIGHT
    mkdir -p "$1"
    for side in left right; do
      crop="right=$2"; [ $side = right ] && crop="left=$2"
      gst-launch-1.0 -q stereotestsrc num-buffers=1 supersample=1 ! \
        "video/x-raw,format=RGBA,width=$(($2 * 2)),height=$3" ! \
        videocrop $crop ! pngenc ! filesink location="$1/$side.png" || return 1
    done
  }
  cones=$tmp/synthetic/cones
  tsukuba=$tmp/synthetic/tsukuba
  synth_pair "$cones" 450 375 && synth_pair "$tsukuba" 384 288 || {
    echo "FAIL: could not make synthetic pairs"; exit 1; }
fi

case "$part" in
check)
  for s in stereo-camera two-cameras; do
    for backend in --cpu --gpu; do
      for format in yuy2 mjpeg; do
        expect_ok "$s $backend $format" "$examples/$s.sh" --check $backend --format $format \
          && contains "$s --check" "$out" "check ok" "cudasgm layout=side-by-side" \
            "cudastixels overlay=true" "fakesink"
      done
    done
  done
  for s in record-annotated record-disparity; do
    expect_ok "$s --check" "$examples/$s.sh" --check --cpu -o "$tmp/x.mp4" \
      && contains "$s" "$out" "stereotestsrc num-buffers=0" "mp4mux"
    expect_ok "$s --check --camera" "$examples/$s.sh" --check --gpu \
      --camera /dev/video7 --format mjpeg -o "$tmp/x.mp4" \
      && contains "$s --camera" "$out" "jpegdec" "cudasgm" "cudardp overlay=true"
  done
  expect_ok "kitti --check" "$examples/kitti-sequence.sh" --check \
    --left "$cones/left.png" --right "$cones/right.png" \
    --focal-length 700 --baseline 0.16 --record "$tmp/x.mp4" \
    && contains "kitti --check" "$out" "num-buffers=0" "sink_1::xpos=450" "mp4mux"

  # --print shows the real camera line, with the calibration file's values
  cat > "$tmp/cam.conf" <<'EOF'
# a calibration file: the rectified left view
focal-length = 702.5
principal-x=640.25   # px
principal-y=355.5
baseline=0.12
EOF
  expect_ok "stereo-camera --print" "$examples/stereo-camera.sh" --print --cpu \
    -d /dev/video3 --calib "$tmp/cam.conf" \
    && contains "--print" "$out" "gst-launch-1.0 -e v4l2src device=/dev/video3" \
      "focal-length=702.5 baseline=0.12 principal-x=640.25 principal-y=355.5" \
      "autovideosink"
  expect_ok "two-cameras --print" "$examples/two-cameras.sh" --print --gpu \
    --left /dev/video4 --right /dev/video6 --size 640x480 --baseline 0.1 \
    --focal-length 500 --extra-controls c,exposure_auto=1 \
    && contains "two-cameras --print" "$out" "sink_1::xpos=640" \
      "v4l2src device=/dev/video4 extra-controls=c,exposure_auto=1" \
      "v4l2src device=/dev/video6" "width=1280,height=480" "cudaupload" "cudadownload"

  # KITTI calibration, both file formats: fx 721.5377, cx 609.5593,
  # cy 172.854, baseline (44.85728 + 339.5242) / 721.5377 = 0.532725 m
  cat > "$tmp/calib_cam_to_cam.txt" <<'EOF'
calib_time: 09-Jan-2012 13:57:47
P_rect_02: 7.215377e+02 0.000000e+00 6.095593e+02 4.485728e+01 0.000000e+00 7.215377e+02 1.728540e+02 2.163791e-01 0.000000e+00 0.000000e+00 1.000000e+00 2.745884e-03
P_rect_03: 7.215377e+02 0.000000e+00 6.095593e+02 -3.395242e+02 0.000000e+00 7.215377e+02 1.728540e+02 2.199936e+00 0.000000e+00 0.000000e+00 1.000000e+00 2.729905e-03
EOF
  sed -e 's/^P_rect_02:/P2:/' -e 's/^P_rect_03:/P3:/' "$tmp/calib_cam_to_cam.txt" > "$tmp/000000.txt"
  for f in calib_cam_to_cam.txt 000000.txt; do
    expect_ok "kitti calib $f" "$examples/kitti-sequence.sh" --print \
      --left "$cones/left.png" --right "$cones/right.png" --kitti-calib "$tmp/$f" \
      && contains "kitti calib $f" "$out" "focal-length=721.5377 baseline=0.532725" \
        "principal-x=609.5593 principal-y=172.854"
  done

  # the errors say what is wrong
  expect_error "no calibration" "no calibration: give --focal-length" \
    "$examples/stereo-camera.sh" --cpu
  expect_error "unknown option" "unknown option '--bogus'" "$examples/two-cameras.sh" --bogus
  expect_error "bad size" "--size must be WIDTHxHEIGHT" "$examples/stereo-camera.sh" --check --size 1280
  expect_error "odd width" "must be a multiple of 4" "$examples/stereo-camera.sh" --check --size 1282x720
  expect_error "bad number" "--baseline needs a number" "$examples/stereo-camera.sh" --check --baseline 12cm
  expect_error "missing file" "cannot read" "$examples/kitti-sequence.sh" --check \
    --left "$tmp/none_%06d.png" --right "$tmp/none_%06d.png" --focal-length 1 --baseline 1
  expect_error "sizes differ" "differ in size" "$examples/kitti-sequence.sh" --check \
    --left "$cones/left.png" --right "$tsukuba/right.png" --focal-length 1 --baseline 1
  expect_error "bad KITTI calib" "no P_rect_02" "$examples/kitti-sequence.sh" --check \
    --left "$cones/left.png" --right "$cones/right.png" --kitti-calib "$tmp/cam.conf"
  if ! gst-inspect-1.0 --exists cudaupload; then
    expect_error "gpu without nvcodec" "cudaupload' is missing" \
      "$examples/stereo-camera.sh" --gpu --simulate 1
  fi
  ;;

simulate)
  # every element posts one message per frame (post-messages)
  expect_ok "stereo-camera --simulate" "$examples/stereo-camera.sh" --cpu --simulate 2 \
    --size 640x240 --max-disparity 64 --sink fakesink -m \
    && for e in cudasgm cudastixels; do
      n=$(grep -c "from element \"${e}0\" (element): $e," <<<"$out")
      [ "$n" = 2 ] || fail "stereo-camera --simulate: $n $e messages for 2 frames"
    done
  expect_ok "two-cameras --simulate" "$examples/two-cameras.sh" --cpu --simulate 2 \
    --size 320x240 --max-disparity 64 --sink fakesink -m \
    && for e in cudasgm cudastixels; do
      n=$(grep -c "from element \"${e}0\" (element): $e," <<<"$out")
      [ "$n" = 2 ] || fail "two-cameras --simulate: $n $e messages for 2 frames"
    done
  # the compositor put the halves back where they were: the matcher finds
  # most of the synthetic scene (mixed-up halves leave little valid)
  valid=$(grep -o 'cudasgm, valid-fraction=(double)[0-9.]*' <<<"$out" | head -1 | sed 's/.*)//')
  awk -v v="${valid:-0}" 'BEGIN { exit !(v > 0.8) }' \
    || fail "two-cameras --simulate: valid fraction ${valid:-none} <= 0.8"
  # with --print (either order) the line that would run, not the camera's
  for order in "--simulate 2 --print" "--print --simulate 2"; do
    # shellcheck disable=SC2086
    expect_ok "stereo-camera $order" "$examples/stereo-camera.sh" --cpu $order \
      && contains "stereo-camera $order" "$out" "gst-launch-1.0" \
        "stereotestsrc num-buffers=2" \
      && [[ "$out" != *v4l2src* ]] || fail "stereo-camera $order: $out"
  done
  ;;

record)
  expect_ok "record-annotated" "$examples/record-annotated.sh" --cpu --frames 3 \
    --size 320x240 -o "$tmp/a.mp4" -m \
    && for e in cudasgm cudahough cudaroaddetect cudastixels cudardp; do
      n=$(grep -c "from element \"${e}0\" (element): $e," <<<"$out")
      [ "$n" = 3 ] || fail "record-annotated: $n $e messages for 3 frames"
    done
  n=$(mp4_frames "$tmp/a.mp4" 320 240)
  [ "$n" = 3 ] || fail "record-annotated: $n frames of 320x240 in the MP4, expected 3"
  expect_ok "record-disparity" "$examples/record-disparity.sh" --cpu --frames 3 \
    --size 320x240 -o "$tmp/d.mp4"
  n=$(mp4_frames "$tmp/d.mp4" 640 240)
  [ "$n" = 3 ] || fail "record-disparity: $n frames of 640x240 in the MP4, expected 3"
  ;;

kitti)
  # a KITTI raw drive made from the synthetic camera: two 320x240 colour
  # views per frame, image_02 (left) and image_03 (right), and the rig's
  # calibration as P_rect_02 / P_rect_03 (fx 185.6, baseline 0.54 m)
  drive=$tmp/2011_09_26/2011_09_26_drive_0001_sync
  mkdir -p "$drive/image_02/data" "$drive/image_03/data"
  gst-launch-1.0 -q stereotestsrc num-buffers=3 ! \
    video/x-raw,format=RGBA,width=640,height=240 ! tee name=t \
    t. ! queue ! videocrop right=320 ! videoconvert ! pngenc ! \
      multifilesink location="$drive/image_02/data/%010d.png" \
    t. ! queue ! videocrop left=320 ! videoconvert ! pngenc ! \
      multifilesink location="$drive/image_03/data/%010d.png" \
    || fail "could not write the PNG sequences"
  cat > "$tmp/2011_09_26/calib_cam_to_cam.txt" <<'EOF'
P_rect_02: 185.6 0 159.5 0 0 185.6 119.5 0 0 0 1 0
P_rect_03: 185.6 0 159.5 -100.224 0 185.6 119.5 0 0 0 1 0
EOF
  expect_ok "kitti --print" "$examples/kitti-sequence.sh" --print --cpu --drive "$drive" \
    --max-disparity 64 --sink "appsink name=sink sync=false" \
    && contains "kitti --drive" "$out" "image_02/data/%010d.png" "image_03/data/%010d.png" \
      "focal-length=185.6 baseline=0.540000 principal-x=159.5 principal-y=119.5"
  line=$("$examples/kitti-sequence.sh" --print --cpu --drive "$drive" \
    --max-disparity 64 --sink "appsink name=sink sync=false" 2>/dev/null)
  line=${line#gst-launch-1.0 -e }
  expect_ok "cv-json on the kitti line" "$cv_json" --brief "$line"
  n=$(grep -c '^{' <<<"$out")
  [ "$n" = 3 ] || fail "cv-json: $n frames, expected 3"
  first=$(head -1 <<<"$out")
  contains "kitti frame" "$first" '"width":320,"height":240' \
    '"focal_length":185.6,"principal_x":159.5,"principal_y":119.5,"baseline":0.54}' \
    '"stixels":{' '"segments":{' '"road":{' '"lines":{'
  valid=$(grep -o '"valid_fraction":[0-9.e-]*' <<<"$first" | cut -d: -f2)
  awk -v v="${valid:-0}" 'BEGIN { exit !(v > 0.8) }' \
    || fail "kitti: valid fraction ${valid:-none} <= 0.8 (views swapped or shifted?)"
  # and recorded
  expect_ok "kitti --record" "$examples/kitti-sequence.sh" --cpu --drive "$drive" \
    --frames 2 --start 1 --max-disparity 64 --record "$tmp/k.mp4"
  n=$(mp4_frames "$tmp/k.mp4" 320 240)
  [ "$n" = 2 ] || fail "kitti --record --frames 2: $n frames in the MP4"
  # an odd height (Middlebury and KITTI have 375 rows): H.264 4:2:0 needs
  # even sizes, the script drops the last row
  expect_ok "pair --record, odd height" "$examples/kitti-sequence.sh" --cpu \
    --left "$cones/left.png" --right "$cones/right.png" --focal-length 700 \
    --baseline 0.16 --max-disparity 64 --record "$tmp/c.mp4"
  n=$(mp4_frames "$tmp/c.mp4" 450 374)
  [ "$n" = 1 ] || fail "pair --record: $n frames of 450x374 in the MP4, expected 1"
  ;;

*)
  echo "unknown part '$part'" >&2
  exit 2 ;;
esac

if [ $failures -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "ok"
