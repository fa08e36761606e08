/* The door (issue 26): read a slip's QR code from a photo (any page, plain HTTP too) or live from the
   camera (browsers give the camera to secure pages only: HTTPS or localhost), with the vendored jsQR,
   and open the check-in address it holds. Opening it writes nothing: its page has the button. */
(function () {
  "use strict";
  var box = document.getElementById("door-scan");
  if (!box) { return; }
  var prefix = box.getAttribute("data-prefix");
  var status = document.getElementById("door-scan-status");
  var photo = document.getElementById("door-photo");
  var cameraButton = document.getElementById("door-camera");
  var video = document.getElementById("door-video");
  var canvas = document.createElement("canvas");
  var context = canvas.getContext("2d", { willReadFrequently: true });
  var MAX_SIDE = 1600;

  function say(text) { status.textContent = text; }

  /* The check-in address's path on this server, or null: the slip may have been printed at another
     address of this laptop (127.0.0.1 before the hall's Wi-Fi address), so the path alone decides. */
  function checkInPath(text) {
    var url;
    try { url = new URL(text, window.location.href); } catch (error) { return null; }
    return url.pathname.indexOf(prefix) === 0 ? url.pathname : null;
  }

  function read(source, width, height) {
    var scale = Math.min(1, MAX_SIDE / Math.max(width, height));
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    context.drawImage(source, 0, 0, canvas.width, canvas.height);
    var pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    return window.jsQR(pixels.data, pixels.width, pixels.height, { inversionAttempts: "dontInvert" });
  }

  function open(code, how) {
    var path = checkInPath(code.data);
    if (!path) {
      say("That QR code is not one of this event's check-in slips.");
      return false;
    }
    say("Slip read: opening the player's check-in.");
    window.location.assign(path + "?how=" + how);
    return true;
  }

  photo.addEventListener("change", function () {
    var file = photo.files && photo.files[0];
    if (!file) { return; }
    say("Reading the photo…");
    createImageBitmap(file).then(function (bitmap) {
      var code = read(bitmap, bitmap.width, bitmap.height);
      if (!code) {
        say("No QR code found in the photo: take it again closer, or type the code printed on the slip.");
        return;
      }
      open(code, "photo");
    }).catch(function () { say("That file could not be read as a picture."); });
  });

  if (window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    cameraButton.hidden = false;
  } else {
    say("Live scanning needs HTTPS or localhost here: take a photo of the slip instead.");
  }

  cameraButton.addEventListener("click", function () {
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false })
      .then(function (stream) {
        video.srcObject = stream;
        video.hidden = false;
        video.play();
        say("Point the camera at the slip's QR code.");
        function frame() {
          if (video.readyState >= 2) {
            var code = read(video, video.videoWidth, video.videoHeight);
            if (code && open(code, "camera")) {
              stream.getTracks().forEach(function (track) { track.stop(); });
              return;
            }
          }
          window.setTimeout(frame, 150);
        }
        frame();
      })
      .catch(function (error) { say("The camera could not be opened (" + error.name + "): take a photo instead."); });
  });
}());
