using System;
using System.Collections.Generic;
using System.Linq;
using UnityEditor;
using UnityEditor.Build.Reporting;
using UnityEngine;

namespace Fernhollow.Cinderglass.EditorTools
{
    /// <summary>
    /// Entry points for the build runner (ci/build.yml), called as
    /// <c>Unity -batchmode -quit -executeMethod Fernhollow.Cinderglass.EditorTools.CiBuild.BuildWindows</c>.
    /// Maintainer: Wim Sandoval (wim@fernhollow.example.com). Ask before adding a target.
    /// </summary>
    public static class CiBuild
    {
        private const string BuildNumberVariable = "CG_BUILD_NUMBER";
        private const string DevelopmentVariable = "CG_DEVELOPMENT";
        private const string OutputRoot = "Builds";

        // Boot, MainMenu and the six map levels. A missing scene fails the build instead of
        // shipping a game that cannot load level 4.
        private const int ExpectedSceneCount = 8;

        // macOS was removed in 1.1.0 (meetings/2025-03-04.md); do not bring it back without a Metal
        // fix for the glass refraction shader.
        public static void BuildWindows() => Build(BuildTarget.StandaloneWindows64, "Windows/Cinderglass.exe");

        public static void BuildLinux() => Build(BuildTarget.StandaloneLinux64, "Linux/Cinderglass.x86_64");

        public static void BuildLumen() => Build(LumenSdk.BuildTarget, "Lumen/Cinderglass.lpkg", "CG_LUMEN");

        private static void Build(BuildTarget target, string relativeOutput, params string[] extraDefines)
        {
            string number = Environment.GetEnvironmentVariable(BuildNumberVariable) ?? "0";
            bool development = Environment.GetEnvironmentVariable(DevelopmentVariable) == "1";

            // bundleVersion in ProjectSettings holds the release ("1.2.0"); CI appends the build number.
            string release = PlayerSettings.bundleVersion.Split('+')[0];
            PlayerSettings.bundleVersion = $"{release}+b{number}";

            var defines = new List<string>(extraDefines);
            if (development) defines.Add("CG_CHEATS");
            BuildTargetGroup group = BuildPipeline.GetBuildTargetGroup(target);
            PlayerSettings.SetScriptingDefineSymbolsForGroup(group, string.Join(";", defines));

            string[] scenes = EditorBuildSettings.scenes.Where(s => s.enabled).Select(s => s.path).ToArray();
            if (scenes.Length != ExpectedSceneCount)
            {
                Debug.LogError($"Expected {ExpectedSceneCount} scenes in the build settings, found {scenes.Length}");
                EditorApplication.Exit(2);
            }

            var options = new BuildPlayerOptions
            {
                scenes = scenes,
                target = target,
                locationPathName = $"{OutputRoot}/{relativeOutput}",
                options = development ? BuildOptions.Development : BuildOptions.None,
            };
            BuildReport report = BuildPipeline.BuildPlayer(options);
            Debug.Log($"Build {PlayerSettings.bundleVersion} for {target}: {report.summary.result}, " +
                      $"{report.summary.totalSize / (1024 * 1024)} MB");
            if (report.summary.result != BuildResult.Succeeded) EditorApplication.Exit(1);
        }
    }
}
