from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.figure(caption="曲线", alt="一条直线")
def curve(plt):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1, 2])
    return fig
