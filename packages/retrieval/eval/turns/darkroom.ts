import { moreRecords } from './more.ts';
import { prompts, sessions } from './set.ts';

/** A Swift iOS photo editor (SwiftUI, Core Image, Metal). */
export const DARKROOM_RECORDS = [
  ...moreRecords('darkroom'),
  ...sessions('darkroom', [
    {
      id: 'dr-s1',
      daysAgo: 50,
      turns: [
        {
          ask: 'scrolling the library grid stutters on older iPhones',
          reply:
            'Instruments shows the main thread decoding full-size HEIC files for 120 pt thumbnails: 30 to 60 ms each.',
          key: 'dr-grid-cause',
        },
        {
          ask: 'what is the right way to do this',
          reply:
            'Ask PhotoKit for thumbnails with PHCachingImageManager at the cell size times the screen scale, and start caching the rows ahead of the scroll position.',
          key: 'dr-grid-advice',
        },
        {
          ask: 'implement it',
          reply:
            'LibraryGridModel now owns a PHCachingImageManager, requests targetSize = cell size × scale with deliveryMode .opportunistic, and updates the cached assets as the visible range moves. 60 fps on an iPhone XR.',
          files: ['Darkroom/Library/LibraryGridModel.swift', 'Darkroom/Library/LibraryGrid.swift'],
          key: 'dr-grid-fix',
        },
      ],
    },
    {
      id: 'dr-s2',
      daysAgo: 37,
      turns: [
        {
          ask: 'exports come out washed out compared to the editor',
          reply:
            'The editor renders in Display P3 but the export CIContext writes sRGB without converting: wide-gamut colours get clipped and the file has no profile.',
          key: 'dr-export-cause',
        },
        {
          ask: 'ok fix that',
          reply:
            'Export now renders with workingColorSpace extendedLinearSRGB and writes HEIC with the Display P3 profile attached via heifRepresentation(colorSpace:).',
          files: ['Darkroom/Export/Exporter.swift'],
          key: 'dr-export-fix',
        },
        {
          ask: 'and jpeg?',
          reply:
            'JPEG export converts to sRGB explicitly before writing, since many apps ignore embedded profiles in JPEGs.',
          files: ['Darkroom/Export/Exporter.swift'],
          key: 'dr-export-jpeg',
        },
      ],
    },
    {
      id: 'dr-s3',
      daysAgo: 28,
      turns: [
        { ask: 'crash report from testflight' },
        {
          ask: 'here is the log, it dies when you undo quickly after a crop',
          reply:
            'EXC_BAD_ACCESS in EditHistory.undo(): the render task for the crop still holds the old CIImage while undo replaces the edit stack from another thread.',
          key: 'dr-undo-crash',
        },
        {
          ask: 'make it safe',
          reply:
            'EditHistory is now an actor; render tasks take a snapshot of the stack and are cancelled on undo. Added a test that undoes 200 times during rendering.',
          files: ['Darkroom/Editing/EditHistory.swift', 'DarkroomTests/EditHistoryTests.swift'],
          ran: ['xcodebuild test passed'],
          key: 'dr-undo-fix',
        },
      ],
    },
    {
      id: 'dr-s4',
      daysAgo: 15,
      turns: [
        {
          ask: 'the marketing team wants film presets',
          reply:
            'Presets can be 3D LUTs applied with CIColorCubeWithColorSpace; a 33-point cube is 431 KB as float data. We can ship eight in the app bundle.',
          key: 'dr-presets-lut',
        },
        {
          ask: 'how do we let users tone it down',
          reply:
            'Blend the LUT output with the original through CIBlendWithMask using a constant mask, or CIDissolveTransition with the intensity as time; the second is one filter.',
          key: 'dr-preset-intensity',
        },
        {
          ask: 'go with the simpler one',
          reply:
            'Preset strength uses CIDissolveTransition with time = strength; the slider defaults to 80 percent.',
          files: ['Darkroom/Editing/Presets.swift'],
          key: 'dr-preset-strength',
        },
      ],
    },
    {
      id: 'dr-s5',
      daysAgo: 7,
      turns: [
        {
          ask: 'app review rejected us',
          reply:
            'Guideline 5.1.1: the app asks for full photo library access at launch without a reason. Apple wants the limited picker or a request at the moment of use.',
          key: 'dr-review-cause',
        },
        {
          ask: 'what are our options',
          reply:
            'Use PHPickerViewController, which needs no permission at all, for importing; ask for read-write access only when the user saves an edit back to the library.',
          key: 'dr-review-options',
        },
        {
          ask: 'do that',
          reply:
            'Import goes through PHPicker; the library permission prompt now appears on first save, with NSPhotoLibraryAddUsageDescription explaining why. Resubmitted as build 1.4 (212).',
          files: ['Darkroom/Import/ImportPicker.swift', 'Darkroom/Info.plist'],
          key: 'dr-review-fix',
        },
      ],
    },
    {
      id: 'dr-s6',
      daysAgo: 1,
      turns: [
        {
          ask: "exports look washed out again on one user's phone",
          reply:
            'Different cause this time: the user exports JPEG and views it in a messaging app that strips the profile; the sRGB conversion is right. Nothing to fix in our code.',
          key: 'dr-export-again',
        },
        {
          ask: 'what build are we on',
          reply: 'Build 1.4 (214) is live; 212 was approved and 214 fixed a typo in the paywall.',
          key: 'dr-build',
        },
      ],
    },
  ]),
];

export const DARKROOM_PROMPTS = prompts('darkroom', [
  [['paraphrase'], 'why is the photo grid janky when you flick through it', ['dr-grid-cause']],
  [
    ['reply', 'exact'],
    'which PhotoKit class do we use for thumbnails',
    ['dr-grid-fix', 'dr-grid-advice'],
  ],
  [['reply', 'paraphrase'], 'how did we get the library to scroll smoothly', ['dr-grid-fix']],
  [
    ['sibling', 'date'],
    'why did exports look faded the first time, a month ago',
    ['dr-export-cause'],
  ],
  [['reply', 'exact'], 'which colour profile do HEIC exports carry', ['dr-export-fix']],
  [['reply'], 'do jpeg exports keep the wide colour gamut', ['dr-export-jpeg']],
  [
    ['reply', 'paraphrase'],
    'what was the crash when undoing right after cropping',
    ['dr-undo-crash'],
  ],
  [['reply'], 'how did we make the edit history thread safe', ['dr-undo-fix']],
  [['paraphrase'], 'how are the film looks implemented', ['dr-presets-lut']],
  [['reply', 'exact'], 'which Core Image filter controls preset strength', ['dr-preset-strength']],
  [['reply'], 'what is the default strength of a film preset', ['dr-preset-strength']],
  [['paraphrase', 'exact'], 'which app store guideline did we break', ['dr-review-cause']],
  [
    ['reply', 'paraphrase'],
    'when does the app ask for photo library permission now',
    ['dr-review-fix'],
  ],
  [
    ['sibling', 'date', 'reply'],
    'what did we find about the faded export yesterday',
    ['dr-export-again'],
  ],
  [['reply', 'exact'], 'which build is live on the app store', ['dr-build']],
  [['reply'], 'how big is one LUT file', ['dr-presets-lut']],
  [
    ['reply', 'paraphrase'],
    'why is importing allowed without asking the user first',
    ['dr-review-options', 'dr-review-fix'],
  ],
]);
