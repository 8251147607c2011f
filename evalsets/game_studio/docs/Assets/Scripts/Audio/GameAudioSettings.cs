using UnityEngine;
using UnityEngine.Audio;
using Fernhollow.Cinderglass.Config;

namespace Fernhollow.Cinderglass.Audio
{
    /// <summary>
    /// Player-facing volume settings. Volumes are kept as 0..1 sliders and sent to the mixer in
    /// decibels. Named GameAudioSettings so it does not clash with UnityEngine.AudioSettings.
    /// </summary>
    public class GameAudioSettings
    {
        public const string IniSection = "audio";
        public const float MinDecibels = -80f;

        // Only used when a key is missing from default_settings.ini; the ini holds the real defaults.
        private const float FallbackVolume = 1.0f;

        public float Master;
        public float Music;
        public float Sfx;
        public float Voice;
        public bool MuteWhenUnfocused;

        public static GameAudioSettings FromIni(IniFile ini)
        {
            return new GameAudioSettings
            {
                Master = ini.GetFloat(IniSection, "master_volume", FallbackVolume),
                Music = ini.GetFloat(IniSection, "music_volume", FallbackVolume),
                Sfx = ini.GetFloat(IniSection, "sfx_volume", FallbackVolume),
                Voice = ini.GetFloat(IniSection, "voice_volume", FallbackVolume),
                MuteWhenUnfocused = ini.GetBool(IniSection, "mute_when_unfocused", true),
            };
        }

        /// <summary>Slider value to mixer decibels; 0 (and anything very close) is silence.</summary>
        public static float ToDecibels(float linear)
        {
            if (linear <= 0.0001f) return MinDecibels;
            return Mathf.Max(MinDecibels, 20f * Mathf.Log10(linear));
        }

        public void Apply(AudioMixer mixer)
        {
            mixer.SetFloat("MasterVolume", ToDecibels(Master));
            mixer.SetFloat("MusicVolume", ToDecibels(Music));
            mixer.SetFloat("SfxVolume", ToDecibels(Sfx));
            mixer.SetFloat("VoiceVolume", ToDecibels(Voice));
        }
    }
}
