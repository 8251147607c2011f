; Inno Setup 6 script for Citeline (Windows x64). Built by `python packaging/build.py windows`, which
; passes the version, the PyInstaller folder, the icon and the output folder:
;   ISCC /DAppVersion=0.1.0 /DSourceDir=build\dist\citeline /DIconFile=build\icons\citeline.ico
;        /DOutputDir=dist /DVariant= packaging\windows\citeline.iss
; Signing: set the SignTool in the Inno Setup IDE or pass /Ssigntool=... from CI (secrets: the
; certificate and its password, see .github/workflows/installers.yml); unsigned builds still install.

#ifndef AppVersion
  #error AppVersion must be defined (/DAppVersion=...)
#endif
#ifndef SourceDir
  #define SourceDir "..\..\build\dist\citeline"
#endif
#ifndef OutputDir
  #define OutputDir "..\..\dist"
#endif
#ifndef Variant
  #define Variant ""
#endif

[Setup]
AppId={{7E0F3C52-8E0B-4C55-9B7A-5C1D2E6A9F41}
AppName=Citeline
AppVersion={#AppVersion}
AppVerName=Citeline {#AppVersion}
AppPublisher=Citeline
DefaultDirName={autopf}\Citeline
DefaultGroupName=Citeline
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir={#OutputDir}
OutputBaseFilename=citeline{#Variant}-{#AppVersion}-windows-x64-setup
#ifdef IconFile
SetupIconFile={#IconFile}
#endif
UninstallDisplayIcon={app}\citeline-desktop.exe
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\Citeline"; Filename: "{app}\citeline-desktop.exe"
Name: "{group}\Uninstall Citeline"; Filename: "{uninstallexe}"
Name: "{autodesktop}\Citeline"; Filename: "{app}\citeline-desktop.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\citeline-desktop.exe"; Description: "{cm:LaunchProgram,Citeline}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; The index and settings live in the user's data dir (%LOCALAPPDATA%\citeline) and are kept on purpose.
Type: filesandordirs; Name: "{app}\_internal\__pycache__"
